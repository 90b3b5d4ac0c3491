from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="EventRedeliveryDeliveryType0")


@_attrs_define
class EventRedeliveryDeliveryType0:
    """
    Attributes:
        id (UUID): the new delivery's id
        state (Literal['PENDING']): A new delivery starts PENDING.
    """

    id: UUID
    state: Literal["PENDING"]

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        state = self.state

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        state = cast(Literal["PENDING"], d.pop("state"))
        if state != "PENDING":
            raise ValueError(f"state must match const 'PENDING', got '{state}'")

        event_redelivery_delivery_type_0 = cls(
            id=id,
            state=state,
        )

        return event_redelivery_delivery_type_0
