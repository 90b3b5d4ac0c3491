from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ListenerSecretState")


@_attrs_define
class ListenerSecretState:
    """The calling API key's `sandpiper listen` secret: its generation and a rotation's overlap.

    Attributes:
        generation (int): The generation `sandpiper listen` derives this key's listener secret from (0 until the first
            rotation).
        previous_generation (int | None): While a rotation's overlap runs: the generation that keeps signing beside it;
            else null.
        overlap_ends_at (datetime.datetime | None): While a rotation's overlap runs: when the previous secret stops
            signing (real time, UTC); else null.
    """

    generation: int
    previous_generation: int | None
    overlap_ends_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        generation = self.generation

        previous_generation: int | None
        previous_generation = self.previous_generation

        overlap_ends_at: None | str
        if isinstance(self.overlap_ends_at, datetime.datetime):
            overlap_ends_at = self.overlap_ends_at.isoformat()
        else:
            overlap_ends_at = self.overlap_ends_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "generation": generation,
                "previousGeneration": previous_generation,
                "overlapEndsAt": overlap_ends_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        generation = d.pop("generation")

        def _parse_previous_generation(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        previous_generation = _parse_previous_generation(d.pop("previousGeneration"))

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

        listener_secret_state = cls(
            generation=generation,
            previous_generation=previous_generation,
            overlap_ends_at=overlap_ends_at,
        )

        return listener_secret_state
