from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="ListenerForwardAttemptsItem")


@_attrs_define
class ListenerForwardAttemptsItem:
    """
    Attributes:
        number (int): attempt number of this forward, from 1
        started_at (datetime.datetime): when the attempt started
        duration_ms (int): wall time, milliseconds
        status_code (int | None): the receiver's HTTP status; null when no answer arrived
        error (None | str): why no answer arrived; null otherwise
        next_attempt_at (datetime.datetime | None): when the listener tried again; null after a 2xx or when it gave up
    """

    number: int
    started_at: datetime.datetime
    duration_ms: int
    status_code: int | None
    error: None | str
    next_attempt_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        started_at = self.started_at.isoformat()

        duration_ms = self.duration_ms

        status_code: int | None
        status_code = self.status_code

        error: None | str
        error = self.error

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "number": number,
                "startedAt": started_at,
                "durationMs": duration_ms,
                "statusCode": status_code,
                "error": error,
                "nextAttemptAt": next_attempt_at,
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

        listener_forward_attempts_item = cls(
            number=number,
            started_at=started_at,
            duration_ms=duration_ms,
            status_code=status_code,
            error=error,
            next_attempt_at=next_attempt_at,
        )

        return listener_forward_attempts_item
