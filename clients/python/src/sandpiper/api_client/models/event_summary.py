from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_summary_type import EventSummaryType

if TYPE_CHECKING:
    from ..models.event_summary_data import EventSummaryData
    from ..models.event_summary_delivery import EventSummaryDelivery


T = TypeVar("T", bound="EventSummary")


@_attrs_define
class EventSummary:
    """An event as lists show it.

    Attributes:
        id (UUID): event id; equals the X-Service-Event-Id header and stays the same across retries and redeliveries
        type_ (EventSummaryType): payment.succeeded, payment.failed or payment.expired; no other event types exist
        created_at (datetime.datetime): when the payment reached the state the event reports
        data (EventSummaryData): the full Payment without the customer member, as it was when the event was recorded
        delivery (EventSummaryDelivery): delivery to the configured callback address (listener forwards are not counted)
    """

    id: UUID
    type_: EventSummaryType
    created_at: datetime.datetime
    data: EventSummaryData
    delivery: EventSummaryDelivery

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        delivery = self.delivery.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "createdAt": created_at,
                "data": data,
                "delivery": delivery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_summary_data import EventSummaryData
        from ..models.event_summary_delivery import (
            EventSummaryDelivery,
        )

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        type_ = EventSummaryType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        data = EventSummaryData.from_dict(d.pop("data"))

        delivery = EventSummaryDelivery.from_dict(d.pop("delivery"))

        event_summary = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
            delivery=delivery,
        )

        return event_summary
