from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.scenario_rule import ScenarioRule


T = TypeVar("T", bound="ScenarioRuleList")


@_attrs_define
class ScenarioRuleList:
    """The merchant's scenario rules.

    Attributes:
        items (list[ScenarioRule]): The merchant's rules, by position.
        total (int): Number of rules.
        page (int): Always 1: every rule is on one page.
        limit (int): The most rules a merchant may have (100).
        pages (int): 0 or 1.
    """

    items: list[ScenarioRule]
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
        from ..models.scenario_rule import ScenarioRule

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = ScenarioRule.from_dict(items_item_data)

            items.append(items_item)

        total = d.pop("total")

        page = d.pop("page")

        limit = d.pop("limit")

        pages = d.pop("pages")

        scenario_rule_list = cls(
            items=items,
            total=total,
            page=page,
            limit=limit,
            pages=pages,
        )

        return scenario_rule_list
