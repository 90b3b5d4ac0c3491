from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SandboxSettingsCallbackRetries")


@_attrs_define
class SandboxSettingsCallbackRetries:
    """The callback retry schedule in force for this merchant.

    Attributes:
        attempts (int): At most this many attempts per delivery (8).
        waits_seconds (list[float]): Base waits after attempts 1 to 7, in seconds (plus or minus 10 % jitter).
    """

    attempts: int
    waits_seconds: list[float]

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        waits_seconds = self.waits_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempts": attempts,
                "waitsSeconds": waits_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempts = d.pop("attempts")

        waits_seconds = cast(list[float], d.pop("waitsSeconds"))

        sandbox_settings_callback_retries = cls(
            attempts=attempts,
            waits_seconds=waits_seconds,
        )

        return sandbox_settings_callback_retries
