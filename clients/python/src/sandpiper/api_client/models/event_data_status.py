from enum import StrEnum


class EventDataStatus(StrEnum):
    CANCELLED = "CANCELLED"
    EXPIRED = "EXPIRED"
    FAILED = "FAILED"
    PENDING = "PENDING"
    PENDING_APPROVAL = "PENDING_APPROVAL"
    SUCCEEDED = "SUCCEEDED"

    def __str__(self) -> str:
        return str(self.value)
