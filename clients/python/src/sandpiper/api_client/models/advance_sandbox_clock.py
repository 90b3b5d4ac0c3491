from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdvanceSandboxClock")


@_attrs_define
class AdvanceSandboxClock:
    """How far to move the merchant's sandbox clock ahead.

    Attributes:
        by (str): How far to move the clock ahead: whole numbers with a unit s, m, h, d or w (`90s`, `15m`, `2h`,
            `1d12h`), or an ISO 8601 duration without years and months (`PT2H`, `P1DT12H`).
    """

    by: str

    def to_dict(self) -> dict[str, Any]:
        by = self.by

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "by": by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        by = d.pop("by")

        advance_sandbox_clock = cls(
            by=by,
        )

        return advance_sandbox_clock
