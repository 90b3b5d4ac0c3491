from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="CallbackSecretState")


@_attrs_define
class CallbackSecretState:
    """The merchant's callback secret: set or not, and a rotation's overlap.

    Attributes:
        configured (bool): A callback address, and so a secret, is set (console, Callbacks).
        overlap_ends_at (datetime.datetime | None): While a rotation's overlap runs: when the previous secret stops
            signing (real time, UTC). Until then X-Service-Signature is still made with the previous secret and webhook-
            signature carries a signature by each. Null outside an overlap.
    """

    configured: bool
    overlap_ends_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        configured = self.configured

        overlap_ends_at: None | str
        if isinstance(self.overlap_ends_at, datetime.datetime):
            overlap_ends_at = self.overlap_ends_at.isoformat()
        else:
            overlap_ends_at = self.overlap_ends_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "configured": configured,
                "overlapEndsAt": overlap_ends_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        configured = d.pop("configured")

        def _parse_overlap_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                overlap_ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return overlap_ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        overlap_ends_at = _parse_overlap_ends_at(d.pop("overlapEndsAt"))

        callback_secret_state = cls(
            configured=configured,
            overlap_ends_at=overlap_ends_at,
        )

        return callback_secret_state
