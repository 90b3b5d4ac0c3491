from enum import StrEnum


class EventStreamPageItemsItemChaosType0KindsItem(StrEnum):
    BAD_SIGNATURE = "bad_signature"
    DELAY = "delay"
    DUPLICATE = "duplicate"
    STALE_TIMESTAMP = "stale_timestamp"

    def __str__(self) -> str:
        return str(self.value)
