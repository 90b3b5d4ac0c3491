from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.sandbox_clock_move_due import SandboxClockMoveDue
    from ..models.sandbox_clock_move_expired import SandboxClockMoveExpired
    from ..models.sandbox_clock_move_missing_rates_item import (
        SandboxClockMoveMissingRatesItem,
    )


T = TypeVar("T", bound="SandboxClockMove")


@_attrs_define
class SandboxClockMove:
    """The merchant's sandbox clock after the move, and what the move did.

    Attributes:
        offset_ms (int): How far the merchant's sandbox time runs ahead of the real clock, in milliseconds; 0 = the real
            clock.
        offset (str): The same for people: `1d 2h`, `0s` for none.
        now (datetime.datetime): The merchant's sandbox time now: the time its payments, checkout sessions, velocity
            windows and limits see.
        real_now (datetime.datetime): The real time now.
        due (SandboxClockMoveDue): What is due at your sandbox time and still being done by the background jobs, in
            short batches (after a large advance: thousands a minute). Read this clock again until all three are 0.
        missing_rates (list[SandboxClockMoveMissingRatesItem]): Pairs your enabled pricing profiles need with no rate on
            one of the 7 Dubai days from your sandbox day: a cross-currency payment on such a day answers 409
            FX_RATE_MISSING until an operator enters the rate. Empty when every day has its rates.
        advanced_by_ms (int): How far this call moved the clock ahead, in milliseconds (0 for a reset).
        expired (SandboxClockMoveExpired): What expired at the new time in the same transaction as the move; the rest of
            what became due is in `due`, expired by the background jobs within seconds.
        deliveries_due (int): Callback deliveries waiting for a retry that are due now (sent within about a second).
    """

    offset_ms: int
    offset: str
    now: datetime.datetime
    real_now: datetime.datetime
    due: SandboxClockMoveDue
    missing_rates: list[SandboxClockMoveMissingRatesItem]
    advanced_by_ms: int
    expired: SandboxClockMoveExpired
    deliveries_due: int

    def to_dict(self) -> dict[str, Any]:
        offset_ms = self.offset_ms

        offset = self.offset

        now = self.now.isoformat()

        real_now = self.real_now.isoformat()

        due = self.due.to_dict()

        missing_rates = []
        for missing_rates_item_data in self.missing_rates:
            missing_rates_item = missing_rates_item_data.to_dict()
            missing_rates.append(missing_rates_item)

        advanced_by_ms = self.advanced_by_ms

        expired = self.expired.to_dict()

        deliveries_due = self.deliveries_due

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "offsetMs": offset_ms,
                "offset": offset,
                "now": now,
                "realNow": real_now,
                "due": due,
                "missingRates": missing_rates,
                "advancedByMs": advanced_by_ms,
                "expired": expired,
                "deliveriesDue": deliveries_due,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sandbox_clock_move_due import SandboxClockMoveDue
        from ..models.sandbox_clock_move_expired import (
            SandboxClockMoveExpired,
        )
        from ..models.sandbox_clock_move_missing_rates_item import (
            SandboxClockMoveMissingRatesItem,
        )

        d = dict(src_dict)
        offset_ms = d.pop("offsetMs")

        offset = d.pop("offset")

        now = datetime.datetime.fromisoformat(d.pop("now"))

        real_now = datetime.datetime.fromisoformat(d.pop("realNow"))

        due = SandboxClockMoveDue.from_dict(d.pop("due"))

        missing_rates = []
        _missing_rates = d.pop("missingRates")
        for missing_rates_item_data in _missing_rates:
            missing_rates_item = SandboxClockMoveMissingRatesItem.from_dict(
                missing_rates_item_data
            )

            missing_rates.append(missing_rates_item)

        advanced_by_ms = d.pop("advancedByMs")

        expired = SandboxClockMoveExpired.from_dict(d.pop("expired"))

        deliveries_due = d.pop("deliveriesDue")

        sandbox_clock_move = cls(
            offset_ms=offset_ms,
            offset=offset,
            now=now,
            real_now=real_now,
            due=due,
            missing_rates=missing_rates,
            advanced_by_ms=advanced_by_ms,
            expired=expired,
            deliveries_due=deliveries_due,
        )

        return sandbox_clock_move
