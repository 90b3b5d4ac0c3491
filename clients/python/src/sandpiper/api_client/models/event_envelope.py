from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_envelope_type import EventEnvelopeType

if TYPE_CHECKING:
    from ..models.event_envelope_data import EventEnvelopeData


T = TypeVar("T", bound="EventEnvelope")


@_attrs_define
class EventEnvelope:
    """The callback envelope exactly as it is delivered.

    Attributes:
        id (UUID): event id; equals the X-Service-Event-Id header and stays the same across retries and redeliveries
        type_ (EventEnvelopeType): payment.succeeded, payment.failed or payment.expired; no other event types exist
        created_at (datetime.datetime): when the payment reached the state the event reports
        data (EventEnvelopeData): the full Payment without the customer member, as it was when the event was recorded
    """

    id: UUID
    type_: EventEnvelopeType
    created_at: datetime.datetime
    data: EventEnvelopeData

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "createdAt": created_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_envelope_data import EventEnvelopeData

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        type_ = EventEnvelopeType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = EventEnvelopeData.from_dict(d.pop("data"))

        event_envelope = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        return event_envelope
