from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.record_forwards_forwards_item_kind import RecordForwardsForwardsItemKind

T = TypeVar("T", bound="RecordForwardsForwardsItem")


@_attrs_define
class RecordForwardsForwardsItem:
    """
    Attributes:
        event_id (UUID): the event forwarded
        forward_id (UUID): made by the listener: one per forward of one feed item, the same for all its attempts
        cursor (str): the feed position of the item forwarded
        kind (RecordForwardsForwardsItemKind): a new event, or a redelivery of one
        attempt (int): attempt number of this forward, from 1
        started_at (datetime.datetime): when the attempt started
        duration_ms (int): wall time of the attempt, milliseconds
        status_code (int | None): the receiver's HTTP status; null when no answer arrived
        error (None | str): why no answer arrived (connection refused, time-out); null otherwise
        forward_to (str): the receiver's URL
        timestamp (str): the timestamp header sent
        signature (str): the signature header sent
        response_snippet (None | str): the first characters of the receiver's answer
        next_attempt_at (datetime.datetime | None): when the listener tries again; null after a 2xx or when it gave up
    """

    event_id: UUID
    forward_id: UUID
    cursor: str
    kind: RecordForwardsForwardsItemKind
    attempt: int
    started_at: datetime.datetime
    duration_ms: int
    status_code: int | None
    error: None | str
    forward_to: str
    timestamp: str
    signature: str
    response_snippet: None | str
    next_attempt_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        event_id = str(self.event_id)

        forward_id = str(self.forward_id)

        cursor = self.cursor

        kind = self.kind.value

        attempt = self.attempt

        started_at = self.started_at.isoformat()

        duration_ms = self.duration_ms

        status_code: int | None
        status_code = self.status_code

        error: None | str
        error = self.error

        forward_to = self.forward_to

        timestamp = self.timestamp

        signature = self.signature

        response_snippet: None | str
        response_snippet = self.response_snippet

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eventId": event_id,
                "forwardId": forward_id,
                "cursor": cursor,
                "kind": kind,
                "attempt": attempt,
                "startedAt": started_at,
                "durationMs": duration_ms,
                "statusCode": status_code,
                "error": error,
                "forwardTo": forward_to,
                "timestamp": timestamp,
                "signature": signature,
                "responseSnippet": response_snippet,
                "nextAttemptAt": next_attempt_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = UUID(d.pop("eventId"))

        forward_id = UUID(d.pop("forwardId"))

        cursor = d.pop("cursor")

        kind = RecordForwardsForwardsItemKind(d.pop("kind"))

        attempt = d.pop("attempt")

        started_at = datetime.datetime.fromisoformat(d.pop("startedAt"))

        duration_ms = d.pop("durationMs")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("statusCode"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        forward_to = d.pop("forwardTo")

        timestamp = d.pop("timestamp")

        signature = d.pop("signature")

        def _parse_response_snippet(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_snippet = _parse_response_snippet(d.pop("responseSnippet"))

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

        record_forwards_forwards_item = cls(
            event_id=event_id,
            forward_id=forward_id,
            cursor=cursor,
            kind=kind,
            attempt=attempt,
            started_at=started_at,
            duration_ms=duration_ms,
            status_code=status_code,
            error=error,
            forward_to=forward_to,
            timestamp=timestamp,
            signature=signature,
            response_snippet=response_snippet,
            next_attempt_at=next_attempt_at,
        )

        return record_forwards_forwards_item
