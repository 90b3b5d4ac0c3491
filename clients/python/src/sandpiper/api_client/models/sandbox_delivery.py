from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.sandbox_delivery_state import SandboxDeliveryState

T = TypeVar("T", bound="SandboxDelivery")


@_attrs_define
class SandboxDelivery:
    """A callback delivery whose next attempt was made due now. Read GET /v1/events/{eventId} for its attempts.

    Attributes:
        id (UUID): Delivery id (GET /v1/events/{id} lists an event's deliveries).
        event_id (UUID): The event this delivery sends.
        state (SandboxDeliveryState): PENDING: the attempt is due now and the delivery worker was told.
        attempt_count (int): Attempts made in this round, at most 8 (the attempt asked for is not counted until it
            starts).
        next_attempt_at (datetime.datetime | None): When the next attempt is due: now.
        delivered_at (datetime.datetime | None): When the receiver answered 2xx; null until then.
        last_error (None | str): Why the previous attempt failed; null before one failed.
        fast_retries (bool): The merchant's fast retries setting (waits divided by 60).
    """

    id: UUID
    event_id: UUID
    state: SandboxDeliveryState
    attempt_count: int
    next_attempt_at: datetime.datetime | None
    delivered_at: datetime.datetime | None
    last_error: None | str
    fast_retries: bool

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        event_id = str(self.event_id)

        state = self.state.value

        attempt_count = self.attempt_count

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        delivered_at: None | str
        if isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        last_error: None | str
        last_error = self.last_error

        fast_retries = self.fast_retries

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "eventId": event_id,
                "state": state,
                "attemptCount": attempt_count,
                "nextAttemptAt": next_attempt_at,
                "deliveredAt": delivered_at,
                "lastError": last_error,
                "fastRetries": fast_retries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        event_id = UUID(d.pop("eventId"))

        state = SandboxDeliveryState(d.pop("state"))

        attempt_count = d.pop("attemptCount")

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

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        fast_retries = d.pop("fastRetries")

        sandbox_delivery = cls(
            id=id,
            event_id=event_id,
            state=state,
            attempt_count=attempt_count,
            next_attempt_at=next_attempt_at,
            delivered_at=delivered_at,
            last_error=last_error,
            fast_retries=fast_retries,
        )

        return sandbox_delivery
