from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.payment_summary import PaymentSummary


T = TypeVar("T", bound="PaymentList")


@_attrs_define
class PaymentList:
    """
    Attributes:
        items (list[PaymentSummary]): This page's payments, newest first.
        total (int): Payments matching the filters, in all pages.
        page (int): This page's number, from 1.
        limit (int): Page size asked for.
        pages (int): Number of pages: ceil(total / limit).
    """

    items: list[PaymentSummary]
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
        from ..models.payment_summary import PaymentSummary

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = PaymentSummary.from_dict(items_item_data)

            items.append(items_item)

        total = d.pop("total")

        page = d.pop("page")

        limit = d.pop("limit")

        pages = d.pop("pages")

        payment_list = cls(
            items=items,
            total=total,
            page=page,
            limit=limit,
            pages=pages,
        )

        return payment_list
