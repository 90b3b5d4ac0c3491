from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.event_stream_page_items_item import EventStreamPageItemsItem


T = TypeVar("T", bound="EventStreamPage")


@_attrs_define
class EventStreamPage:
    """
    Attributes:
        items (list[EventStreamPageItemsItem]): at most 100 items, oldest first
        cursor (str): position to pass as cursor next time
    """

    items: list[EventStreamPageItemsItem]
    cursor: str

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        cursor = self.cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
                "cursor": cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_stream_page_items_item import (
            EventStreamPageItemsItem,
        )

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = EventStreamPageItemsItem.from_dict(items_item_data)

            items.append(items_item)

        cursor = d.pop("cursor")

        event_stream_page = cls(
            items=items,
            cursor=cursor,
        )

        return event_stream_page
