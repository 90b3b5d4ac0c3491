from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_delivery_state import EventDeliveryState

if TYPE_CHECKING:
    from ..models.event_delivery_deliveries_item import EventDeliveryDeliveriesItem


T = TypeVar("T", bound="EventDelivery")


@_attrs_define
class EventDelivery:
    """delivery to the configured callback address; listener forwards are not deliveries and are listed in forwards

    Attributes:
        state (EventDeliveryState): state of the latest delivery to the configured callback address
        deliveries (list[EventDeliveryDeliveriesItem]): the first delivery, then one per redelivery, oldest first
    """

    state: EventDeliveryState
    deliveries: list[EventDeliveryDeliveriesItem]

    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

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
        from ..models.event_delivery_deliveries_item import (
            EventDeliveryDeliveriesItem,
        )

        d = dict(src_dict)
        state = EventDeliveryState(d.pop("state"))

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = EventDeliveryDeliveriesItem.from_dict(
                deliveries_item_data
            )

            deliveries.append(deliveries_item)

        event_delivery = cls(
            state=state,
            deliveries=deliveries,
        )

        return event_delivery
