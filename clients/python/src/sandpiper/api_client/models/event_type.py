from enum import StrEnum


class EventType(StrEnum):
    PAYMENT_EXPIRED = "payment.expired"
    PAYMENT_FAILED = "payment.failed"
    PAYMENT_SUCCEEDED = "payment.succeeded"

    def __str__(self) -> str:
        return str(self.value)
