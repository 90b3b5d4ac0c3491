from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotateSecret")


@_attrs_define
class RotateSecret:
    """How to rotate a secret.

    Attributes:
        overlap (str | Unset): How long the secret being replaced keeps signing beside the new one: a duration such as
            `24h` (the default when absent), `90m`, `7d` (the most) or `0s` (it stops at once). Written as for POST
            /v1/sandbox/clock/advance.
    """

    overlap: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        overlap = self.overlap

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if overlap is not UNSET:
            field_dict["overlap"] = overlap

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        overlap = d.pop("overlap", UNSET)

        rotate_secret = cls(
            overlap=overlap,
        )

        return rotate_secret
