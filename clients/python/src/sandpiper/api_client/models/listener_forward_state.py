from enum import StrEnum


class ListenerForwardState(StrEnum):
    DELIVERED = "DELIVERED"
    FAILED = "FAILED"
    RETRYING = "RETRYING"

    def __str__(self) -> str:
        return str(self.value)
