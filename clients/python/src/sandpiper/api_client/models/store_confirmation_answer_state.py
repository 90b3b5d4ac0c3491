from enum import StrEnum


class StoreConfirmationAnswerState(StrEnum):
    EXPIRED = "EXPIRED"
    FAILED = "FAILED"
    QUEUED = "QUEUED"
    READY = "READY"
    REJECTED = "REJECTED"
    SUCCEEDED = "SUCCEEDED"

    def __str__(self) -> str:
        return str(self.value)
