from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.event_stream_page_items_item_kind import EventStreamPageItemsItemKind
from ..models.event_stream_page_items_item_type import EventStreamPageItemsItemType

if TYPE_CHECKING:
    from ..models.event_stream_page_items_item_chaos_type_0 import (
        EventStreamPageItemsItemChaosType0,
    )


T = TypeVar("T", bound="EventStreamPageItemsItem")


@_attrs_define
class EventStreamPageItemsItem:
    """
    Attributes:
        cursor (str): the merchant's feed position of this item (its own events and redeliveries, from 1); pass it back
            as cursor to read on after it
        kind (EventStreamPageItemsItemKind): a new event, or a redelivery of an earlier one
        event_id (UUID): The event id (also the X-Service-Event-Id of forwards).
        type_ (EventStreamPageItemsItemType): payment.succeeded, payment.failed or payment.expired; no other event types
            exist
        created_at (datetime.datetime): when the event (or the redelivery) was recorded
        payment_id (None | UUID): The payment the event is about; null for a test event.
        reference (None | str): the payment's reference
        body (str): the exact envelope text to send as the request body (sign these bytes)
        chaos (EventStreamPageItemsItemChaosType0 | None): what chaos mode injects into this forward; null when chaos
            mode is off
    """

    cursor: str
    kind: EventStreamPageItemsItemKind
    event_id: UUID
    type_: EventStreamPageItemsItemType
    created_at: datetime.datetime
    payment_id: None | UUID
    reference: None | str
    body: str
    chaos: EventStreamPageItemsItemChaosType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.event_stream_page_items_item_chaos_type_0 import (
            EventStreamPageItemsItemChaosType0,
        )

        cursor = self.cursor

        kind = self.kind.value

        event_id = str(self.event_id)

        type_ = self.type_.value

        created_at = self.created_at.isoformat()

        payment_id: None | str
        if isinstance(self.payment_id, UUID):
            payment_id = str(self.payment_id)
        else:
            payment_id = self.payment_id

        reference: None | str
        reference = self.reference

        body = self.body

        chaos: dict[str, Any] | None
        if isinstance(self.chaos, EventStreamPageItemsItemChaosType0):
            chaos = self.chaos.to_dict()
        else:
            chaos = self.chaos

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cursor": cursor,
                "kind": kind,
                "eventId": event_id,
                "type": type_,
                "createdAt": created_at,
                "paymentId": payment_id,
                "reference": reference,
                "body": body,
                "chaos": chaos,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_stream_page_items_item_chaos_type_0 import (
            EventStreamPageItemsItemChaosType0,
        )

        d = dict(src_dict)
        cursor = d.pop("cursor")

        kind = EventStreamPageItemsItemKind(d.pop("kind"))

        event_id = UUID(d.pop("eventId"))

        type_ = EventStreamPageItemsItemType(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_payment_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                payment_id_type_0 = UUID(data)

                return payment_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        payment_id = _parse_payment_id(d.pop("paymentId"))

        def _parse_reference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference = _parse_reference(d.pop("reference"))

        body = d.pop("body")

        def _parse_chaos(data: object) -> EventStreamPageItemsItemChaosType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                chaos_type_0 = EventStreamPageItemsItemChaosType0.from_dict(data)

                return chaos_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventStreamPageItemsItemChaosType0 | None, data)

        chaos = _parse_chaos(d.pop("chaos"))

        event_stream_page_items_item = cls(
            cursor=cursor,
            kind=kind,
            event_id=event_id,
            type_=type_,
            created_at=created_at,
            payment_id=payment_id,
            reference=reference,
            body=body,
            chaos=chaos,
        )

        return event_stream_page_items_item
