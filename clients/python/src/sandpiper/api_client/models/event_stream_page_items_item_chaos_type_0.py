from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_stream_page_items_item_chaos_type_0_kinds_item import (
    EventStreamPageItemsItemChaosType0KindsItem,
)

T = TypeVar("T", bound="EventStreamPageItemsItemChaosType0")


@_attrs_define
class EventStreamPageItemsItemChaosType0:
    """
    Attributes:
        kinds (list[EventStreamPageItemsItemChaosType0KindsItem]): What chaos mode injects for this event on listener
            forwards.
        delay_ms (int): milliseconds to hold the forward back
    """

    kinds: list[EventStreamPageItemsItemChaosType0KindsItem]
    delay_ms: int

    def to_dict(self) -> dict[str, Any]:
        kinds = []
        for kinds_item_data in self.kinds:
            kinds_item = kinds_item_data.value
            kinds.append(kinds_item)

        delay_ms = self.delay_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kinds": kinds,
                "delayMs": delay_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kinds = []
        _kinds = d.pop("kinds")
        for kinds_item_data in _kinds:
            kinds_item = EventStreamPageItemsItemChaosType0KindsItem(kinds_item_data)

            kinds.append(kinds_item)

        delay_ms = d.pop("delayMs")

        event_stream_page_items_item_chaos_type_0 = cls(
            kinds=kinds,
            delay_ms=delay_ms,
        )

        return event_stream_page_items_item_chaos_type_0
