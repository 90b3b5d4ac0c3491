from enum import StrEnum


class EventStreamPageItemsItemKind(StrEnum):
    EVENT = "event"
    REDELIVERY = "redelivery"

    def __str__(self) -> str:
        return str(self.value)
