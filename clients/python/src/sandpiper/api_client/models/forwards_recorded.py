from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.forwards_recorded_refused_item import ForwardsRecordedRefusedItem


T = TypeVar("T", bound="ForwardsRecorded")


@_attrs_define
class ForwardsRecorded:
    """
    Attributes:
        recorded (int): attempts recorded now
        duplicates (int): attempts already recorded (the same forwardId and attempt): nothing changed
        unknown_events (list[UUID]): event ids that are not this merchant's: their attempts were not recorded
        refused (list[ForwardsRecordedRefusedItem]): attempts not recorded because their `startedAt` cannot be an
            attempt of this listener session (before the event was recorded or the stream opened, or after now); the rest of
            the batch was recorded
    """

    recorded: int
    duplicates: int
    unknown_events: list[UUID]
    refused: list[ForwardsRecordedRefusedItem]

    def to_dict(self) -> dict[str, Any]:
        recorded = self.recorded

        duplicates = self.duplicates

        unknown_events = []
        for unknown_events_item_data in self.unknown_events:
            unknown_events_item = str(unknown_events_item_data)
            unknown_events.append(unknown_events_item)

        refused = []
        for refused_item_data in self.refused:
            refused_item = refused_item_data.to_dict()
            refused.append(refused_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "recorded": recorded,
                "duplicates": duplicates,
                "unknownEvents": unknown_events,
                "refused": refused,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.forwards_recorded_refused_item import (
            ForwardsRecordedRefusedItem,
        )

        d = dict(src_dict)
        recorded = d.pop("recorded")

        duplicates = d.pop("duplicates")

        unknown_events = []
        _unknown_events = d.pop("unknownEvents")
        for unknown_events_item_data in _unknown_events:
            unknown_events_item = UUID(unknown_events_item_data)

            unknown_events.append(unknown_events_item)

        refused = []
        _refused = d.pop("refused")
        for refused_item_data in _refused:
            refused_item = ForwardsRecordedRefusedItem.from_dict(refused_item_data)

            refused.append(refused_item)

        forwards_recorded = cls(
            recorded=recorded,
            duplicates=duplicates,
            unknown_events=unknown_events,
            refused=refused,
        )

        return forwards_recorded
