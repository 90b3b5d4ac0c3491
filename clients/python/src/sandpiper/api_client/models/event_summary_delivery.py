from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_summary_delivery_state import EventSummaryDeliveryState

T = TypeVar("T", bound="EventSummaryDelivery")


@_attrs_define
class EventSummaryDelivery:
    """delivery to the configured callback address (listener forwards are not counted)

    Attributes:
        state (EventSummaryDeliveryState): state of the latest delivery to the configured callback address
        deliveries (int): deliveries made: the first, plus one per redelivery
    """

    state: EventSummaryDeliveryState
    deliveries: int

    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        deliveries = self.deliveries

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
                "deliveries": deliveries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        state = EventSummaryDeliveryState(d.pop("state"))

        deliveries = d.pop("deliveries")

        event_summary_delivery = cls(
            state=state,
            deliveries=deliveries,
        )

        return event_summary_delivery
