from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SandboxClockMoveMissingRatesItem")


@_attrs_define
class SandboxClockMoveMissingRatesItem:
    """
    Attributes:
        pair (str): The direct pair, `USD->AED`.
        base (str): Its base currency.
        quote (str): Its quote currency.
        days (list[str]): The Dubai days (YYYY-MM-DD) without a rate for it, from your sandbox day through the 6 days
            after it.
        used_by (int): How many of your enabled pricing profiles need it.
    """

    pair: str
    base: str
    quote: str
    days: list[str]
    used_by: int

    def to_dict(self) -> dict[str, Any]:
        pair = self.pair

        base = self.base

        quote = self.quote

        days = self.days

        used_by = self.used_by

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pair": pair,
                "base": base,
                "quote": quote,
                "days": days,
                "usedBy": used_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pair = d.pop("pair")

        base = d.pop("base")

        quote = d.pop("quote")

        days = cast(list[str], d.pop("days"))

        used_by = d.pop("usedBy")

        sandbox_clock_move_missing_rates_item = cls(
            pair=pair,
            base=base,
            quote=quote,
            days=days,
            used_by=used_by,
        )

        return sandbox_clock_move_missing_rates_item
