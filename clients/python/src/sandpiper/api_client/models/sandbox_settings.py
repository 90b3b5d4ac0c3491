from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.sandbox_settings_callback_retries import (
        SandboxSettingsCallbackRetries,
    )


T = TypeVar("T", bound="SandboxSettings")


@_attrs_define
class SandboxSettings:
    """The merchant's sandbox settings.

    Attributes:
        fast_retries (bool): Fast retries: the callback schedule with every wait divided by 60.
        callback_retries (SandboxSettingsCallbackRetries): The callback retry schedule in force for this merchant.
    """

    fast_retries: bool
    callback_retries: SandboxSettingsCallbackRetries

    def to_dict(self) -> dict[str, Any]:
        fast_retries = self.fast_retries

        callback_retries = self.callback_retries.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fastRetries": fast_retries,
                "callbackRetries": callback_retries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sandbox_settings_callback_retries import (
            SandboxSettingsCallbackRetries,
        )

        d = dict(src_dict)
        fast_retries = d.pop("fastRetries")

        callback_retries = SandboxSettingsCallbackRetries.from_dict(
            d.pop("callbackRetries")
        )

        sandbox_settings = cls(
            fast_retries=fast_retries,
            callback_retries=callback_retries,
        )

        return sandbox_settings
