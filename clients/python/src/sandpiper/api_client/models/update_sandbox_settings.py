from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="UpdateSandboxSettings")


@_attrs_define
class UpdateSandboxSettings:
    """The merchant's sandbox settings to set.

    Attributes:
        fast_retries (bool): true: retry failed callbacks on the schedule divided by 60 (0.5 s to 60 s); false: the
            normal schedule (30 s to 1 h).
    """

    fast_retries: bool

    def to_dict(self) -> dict[str, Any]:
        fast_retries = self.fast_retries

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fastRetries": fast_retries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        fast_retries = d.pop("fastRetries")

        update_sandbox_settings = cls(
            fast_retries=fast_retries,
        )

        return update_sandbox_settings
