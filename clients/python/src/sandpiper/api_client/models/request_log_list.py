from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.request_log_entry import RequestLogEntry


T = TypeVar("T", bound="RequestLogList")


@_attrs_define
class RequestLogList:
    """
    Attributes:
        items (list[RequestLogEntry]): This page's requests, newest first.
        total (int): requests matching the filters
        page (int): This page's number, from 1.
        limit (int): Page size asked for.
        pages (int): Number of pages: ceil(total / limit).
    """

    items: list[RequestLogEntry]
    total: int
    page: int
    limit: int
    pages: int

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        total = self.total

        page = self.page

        limit = self.limit

        pages = self.pages

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
                "total": total,
                "page": page,
                "limit": limit,
                "pages": pages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.request_log_entry import RequestLogEntry

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = RequestLogEntry.from_dict(items_item_data)

            items.append(items_item)

        total = d.pop("total")

        page = d.pop("page")

        limit = d.pop("limit")

        pages = d.pop("pages")

        request_log_list = cls(
            items=items,
            total=total,
            page=page,
            limit=limit,
            pages=pages,
        )

        return request_log_list
