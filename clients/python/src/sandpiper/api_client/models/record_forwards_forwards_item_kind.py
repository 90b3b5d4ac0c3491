from enum import StrEnum


class RecordForwardsForwardsItemKind(StrEnum):
    EVENT = "event"
    REDELIVERY = "redelivery"

    def __str__(self) -> str:
        return str(self.value)
