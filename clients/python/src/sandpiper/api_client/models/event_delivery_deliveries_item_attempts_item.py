from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="EventDeliveryDeliveriesItemAttemptsItem")


@_attrs_define
class EventDeliveryDeliveriesItemAttemptsItem:
    """
    Attributes:
        number (int): attempt number within this delivery, from 1
        started_at (datetime.datetime): When the attempt started (ISO 8601, UTC).
        duration_ms (int): wall time of the attempt, milliseconds
        status_code (int | None): the receiver's HTTP status; null when no answer arrived
        error (None | str): why the attempt failed (time-out, connection refused, HTTP status); null when it succeeded
    """

    number: int
    started_at: datetime.datetime
    duration_ms: int
    status_code: int | None
    error: None | str

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        started_at = self.started_at.isoformat()

        duration_ms = self.duration_ms

        status_code: int | None
        status_code = self.status_code

        error: None | str
        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "number": number,
                "startedAt": started_at,
                "durationMs": duration_ms,
                "statusCode": status_code,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        number = d.pop("number")

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

        event_delivery_deliveries_item_attempts_item = cls(
            number=number,
            started_at=started_at,
            duration_ms=duration_ms,
            status_code=status_code,
            error=error,
        )

        return event_delivery_deliveries_item_attempts_item
