from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_type import EventType

if TYPE_CHECKING:
    from ..models.event_data import EventData
    from ..models.event_delivery import EventDelivery
    from ..models.listener_forward import ListenerForward


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """One event: the envelope exactly as delivered, its deliveries and its listener forwards in separate members.

    Attributes:
        id (UUID): event id; equals the X-Service-Event-Id header and stays the same across retries and redeliveries
        type_ (EventType): payment.succeeded, payment.failed or payment.expired; no other event types exist
        created_at (datetime.datetime): when the payment reached the state the event reports
        data (EventData): the full Payment without the customer member, as it was when the event was recorded
        delivery (EventDelivery): delivery to the configured callback address; listener forwards are not deliveries and
            are listed in forwards
        forwards (list[ListenerForward]): what `sandpiper listen` processes reported of forwarding this event to a
            receiver, oldest first; never counted as deliveries
    """

    id: UUID
    type_: EventType
    created_at: datetime.datetime
    data: EventData
    delivery: EventDelivery
    forwards: list[ListenerForward]

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        delivery = self.delivery.to_dict()

        forwards = []
        for forwards_item_data in self.forwards:
            forwards_item = forwards_item_data.to_dict()
            forwards.append(forwards_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "createdAt": created_at,
                "data": data,
                "delivery": delivery,
                "forwards": forwards,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_data import EventData
        from ..models.event_delivery import EventDelivery
        from ..models.listener_forward import ListenerForward

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        type_ = EventType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = EventData.from_dict(d.pop("data"))

        delivery = EventDelivery.from_dict(d.pop("delivery"))

        forwards = []
        _forwards = d.pop("forwards")
        for forwards_item_data in _forwards:
            forwards_item = ListenerForward.from_dict(forwards_item_data)

            forwards.append(forwards_item)

        event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
            delivery=delivery,
            forwards=forwards,
        )

        return event
