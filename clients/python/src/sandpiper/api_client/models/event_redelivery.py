from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.event_redelivery_delivery_type_0 import EventRedeliveryDeliveryType0


T = TypeVar("T", bound="EventRedelivery")


@_attrs_define
class EventRedelivery:
    """A fresh delivery of an event to the configured address and to running listeners.

    Attributes:
        id (UUID): redelivery id
        event_id (UUID): the event redelivered (the same event id is sent)
        created_at (datetime.datetime): When the redelivery was asked for (ISO 8601, UTC).
        delivery (EventRedeliveryDeliveryType0 | None): the new delivery to the configured callback address; null when
            no address is configured (listeners still receive it)
    """

    id: UUID
    event_id: UUID
    created_at: datetime.datetime
    delivery: EventRedeliveryDeliveryType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.event_redelivery_delivery_type_0 import (
            EventRedeliveryDeliveryType0,
        )

        id = str(self.id)

        event_id = str(self.event_id)

        created_at = self.created_at.isoformat()

        delivery: dict[str, Any] | None
        if isinstance(self.delivery, EventRedeliveryDeliveryType0):
            delivery = self.delivery.to_dict()
        else:
            delivery = self.delivery

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "eventId": event_id,
                "createdAt": created_at,
                "delivery": delivery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_redelivery_delivery_type_0 import (
            EventRedeliveryDeliveryType0,
        )

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        event_id = UUID(d.pop("eventId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_delivery(data: object) -> EventRedeliveryDeliveryType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                delivery_type_0 = EventRedeliveryDeliveryType0.from_dict(data)

                return delivery_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventRedeliveryDeliveryType0 | None, data)

        delivery = _parse_delivery(d.pop("delivery"))

        event_redelivery = cls(
            id=id,
            event_id=event_id,
            created_at=created_at,
            delivery=delivery,
        )

        return event_redelivery
