from enum import StrEnum


class FailureCode(StrEnum):
    ACCOUNT_CLOSED = "account_closed"
    CUSTOMER_CANCELLED = "customer_cancelled"
    GENERIC_DECLINE = "generic_decline"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    INVALID_ACCOUNT = "invalid_account"
    ISSUER_UNAVAILABLE = "issuer_unavailable"
    LIMIT_EXCEEDED = "limit_exceeded"
    RISK_DECLINED = "risk_declined"
    TIMED_OUT = "timed_out"

    def __str__(self) -> str:
        return str(self.value)
