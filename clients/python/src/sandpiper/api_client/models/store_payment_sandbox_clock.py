from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="StorePaymentSandboxClock")


@_attrs_define
class StorePaymentSandboxClock:
    """Present only when the payment was created or expired while the merchant's sandbox clock was moved (docs: Sandbox
    clock): its times (createdAt, expiresAt, finalizedAt) are sandbox times.

        Attributes:
            offset_ms (int): How far the merchant's sandbox clock ran ahead of the real clock, in milliseconds.
            offset (str): The same for people, e.g. `1d 2h`.
    """

    offset_ms: int
    offset: str

    def to_dict(self) -> dict[str, Any]:
        offset_ms = self.offset_ms

        offset = self.offset

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "offsetMs": offset_ms,
                "offset": offset,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        offset_ms = d.pop("offsetMs")

        offset = d.pop("offset")

        store_payment_sandbox_clock = cls(
            offset_ms=offset_ms,
            offset=offset,
        )

        return store_payment_sandbox_clock
