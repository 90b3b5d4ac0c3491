from enum import StrEnum


class QuotedCheckoutSessionState(StrEnum):
    AWAITING_AMOUNT = "AWAITING_AMOUNT"
    AWAITING_VERIFICATION = "AWAITING_VERIFICATION"
    EXPIRED = "EXPIRED"
    QUOTED = "QUOTED"

    def __str__(self) -> str:
        return str(self.value)
