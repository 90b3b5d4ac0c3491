from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_delivery_deliveries_item_state import (
    EventDeliveryDeliveriesItemState,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_delivery_deliveries_item_attempts_item import (
        EventDeliveryDeliveriesItemAttemptsItem,
    )


T = TypeVar("T", bound="EventDeliveryDeliveriesItem")


@_attrs_define
class EventDeliveryDeliveriesItem:
    """
    Attributes:
        id (UUID): delivery id
        state (EventDeliveryDeliveriesItemState): PENDING (attempts continue), SUCCEEDED (a 2xx answer), FAILED (8
            attempts failed) or NOT_CONFIGURED (no callback address).
        redelivery (bool): true for a delivery made by POST /v1/events/{id}/redeliver
        created_at (datetime.datetime): When the delivery was created (ISO 8601, UTC).
        delivered_at (datetime.datetime | None): when the receiver answered 2xx
        next_attempt_at (datetime.datetime | None): when the next attempt is due; null when none is scheduled
        attempts (list[EventDeliveryDeliveriesItemAttemptsItem]): attempts of this delivery, oldest first
        waiting (str | Unset): present only while this PENDING delivery waits for its callback address: `address refused
            connections since <time>` (ISO 8601, UTC, real clock). Nothing is sent while the address refuses; the service
            probes it every second and sends this delivery at once (or at its own retry time, when that is later) when it
            accepts connections again. POST /v1/sandbox/deliveries/{id}/attempt sends it now.
    """

    id: UUID
    state: EventDeliveryDeliveriesItemState
    redelivery: bool
    created_at: datetime.datetime
    delivered_at: datetime.datetime | None
    next_attempt_at: datetime.datetime | None
    attempts: list[EventDeliveryDeliveriesItemAttemptsItem]
    waiting: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        state = self.state.value

        redelivery = self.redelivery

        created_at = self.created_at.isoformat()

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        waiting = self.waiting

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "state": state,
                "redelivery": redelivery,
                "createdAt": created_at,
                "deliveredAt": delivered_at,
                "nextAttemptAt": next_attempt_at,
                "attempts": attempts,
            }
        )
        if waiting is not UNSET:
            field_dict["waiting"] = waiting

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_delivery_deliveries_item_attempts_item import (
            EventDeliveryDeliveriesItemAttemptsItem,
        )

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        state = EventDeliveryDeliveriesItemState(d.pop("state"))

        redelivery = d.pop("redelivery")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_delivered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        delivered_at = _parse_delivered_at(d.pop("deliveredAt"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = EventDeliveryDeliveriesItemAttemptsItem.from_dict(
                attempts_item_data
            )

            attempts.append(attempts_item)

        waiting = d.pop("waiting", UNSET)

        event_delivery_deliveries_item = cls(
            id=id,
            state=state,
            redelivery=redelivery,
            created_at=created_at,
            delivered_at=delivered_at,
            next_attempt_at=next_attempt_at,
            attempts=attempts,
            waiting=waiting,
        )

        return event_delivery_deliveries_item
