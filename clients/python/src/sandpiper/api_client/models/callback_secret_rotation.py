from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="CallbackSecretRotation")


@_attrs_define
class CallbackSecretRotation:
    """The rotated callback secret.

    Attributes:
        secret (str): The new callback secret (`whsec_` + 44 letters and digits): shown this once, never again (a replay
            of the same Idempotency-Key answers it again). It is also the secret to give a Standard Webhooks library.
        overlap_ends_at (datetime.datetime | None): When the previous secret stops signing (real time, UTC); null when
            `overlap` was 0.
    """

    secret: str
    overlap_ends_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        secret = self.secret

        overlap_ends_at: None | str
        if isinstance(self.overlap_ends_at, datetime.datetime):
            overlap_ends_at = self.overlap_ends_at.isoformat()
        else:
            overlap_ends_at = self.overlap_ends_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "secret": secret,
                "overlapEndsAt": overlap_ends_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        secret = d.pop("secret")

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

        callback_secret_rotation = cls(
            secret=secret,
            overlap_ends_at=overlap_ends_at,
        )

        return callback_secret_rotation
