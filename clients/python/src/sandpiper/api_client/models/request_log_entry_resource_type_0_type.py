from enum import StrEnum


class RequestLogEntryResourceType0Type(StrEnum):
    CHECKOUT_SESSION = "checkout_session"
    EVENT = "event"
    PAYMENT = "payment"

    def __str__(self) -> str:
        return str(self.value)
