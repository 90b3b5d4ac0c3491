from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.record_forwards_forwards_item import RecordForwardsForwardsItem


T = TypeVar("T", bound="RecordForwards")


@_attrs_define
class RecordForwards:
    """Forward attempts of a `sandpiper listen` process, recorded for the merchant's events.

    Attributes:
        forward_token (str): the `forwardToken` of the `ready` message of the stream the listener follows: only that
            key's listener session records, for 70 minutes after the stream opened
        forwards (list[RecordForwardsForwardsItem]): 1 to 50 attempts
    """

    forward_token: str
    forwards: list[RecordForwardsForwardsItem]

    def to_dict(self) -> dict[str, Any]:
        forward_token = self.forward_token

        forwards = []
        for forwards_item_data in self.forwards:
            forwards_item = forwards_item_data.to_dict()
            forwards.append(forwards_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "forwardToken": forward_token,
                "forwards": forwards,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.record_forwards_forwards_item import (
            RecordForwardsForwardsItem,
        )

        d = dict(src_dict)
        forward_token = d.pop("forwardToken")

        forwards = []
        _forwards = d.pop("forwards")
        for forwards_item_data in _forwards:
            forwards_item = RecordForwardsForwardsItem.from_dict(forwards_item_data)

            forwards.append(forwards_item)

        record_forwards = cls(
            forward_token=forward_token,
            forwards=forwards,
        )

        return record_forwards
