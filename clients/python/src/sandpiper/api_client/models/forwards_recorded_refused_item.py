from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ForwardsRecordedRefusedItem")


@_attrs_define
class ForwardsRecordedRefusedItem:
    """
    Attributes:
        index (int): the attempt's place in `forwards`, from 0
        forward_id (UUID): the attempt's forwardId
        attempt (int): the attempt's number
        reason (str): why it was not recorded, with the bound it missed (real time)
    """

    index: int
    forward_id: UUID
    attempt: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        forward_id = str(self.forward_id)

        attempt = self.attempt

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "index": index,
                "forwardId": forward_id,
                "attempt": attempt,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        index = d.pop("index")

        forward_id = UUID(d.pop("forwardId"))

        attempt = d.pop("attempt")

        reason = d.pop("reason")

        forwards_recorded_refused_item = cls(
            index=index,
            forward_id=forward_id,
            attempt=attempt,
            reason=reason,
        )

        return forwards_recorded_refused_item
