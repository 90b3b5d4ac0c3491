from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.sandbox_clock_due import SandboxClockDue
    from ..models.sandbox_clock_missing_rates_item import SandboxClockMissingRatesItem


T = TypeVar("T", bound="SandboxClock")


@_attrs_define
class SandboxClock:
    """The merchant's sandbox clock.

    Attributes:
        offset_ms (int): How far the merchant's sandbox time runs ahead of the real clock, in milliseconds; 0 = the real
            clock.
        offset (str): The same for people: `1d 2h`, `0s` for none.
        now (datetime.datetime): The merchant's sandbox time now: the time its payments, checkout sessions, velocity
            windows and limits see.
        real_now (datetime.datetime): The real time now.
        due (SandboxClockDue): What is due at your sandbox time and still being done by the background jobs, in short
            batches (after a large advance: thousands a minute). Read this clock again until all three are 0.
        missing_rates (list[SandboxClockMissingRatesItem]): Pairs your enabled pricing profiles need with no rate on one
            of the 7 Dubai days from your sandbox day: a cross-currency payment on such a day answers 409 FX_RATE_MISSING
            until an operator enters the rate. Empty when every day has its rates.
    """

    offset_ms: int
    offset: str
    now: datetime.datetime
    real_now: datetime.datetime
    due: SandboxClockDue
    missing_rates: list[SandboxClockMissingRatesItem]

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

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "offsetMs": offset_ms,
                "offset": offset,
                "now": now,
                "realNow": real_now,
                "due": due,
                "missingRates": missing_rates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sandbox_clock_due import SandboxClockDue
        from ..models.sandbox_clock_missing_rates_item import (
            SandboxClockMissingRatesItem,
        )

        d = dict(src_dict)
        offset_ms = d.pop("offsetMs")

        offset = d.pop("offset")

        now = datetime.datetime.fromisoformat(d.pop("now"))

        real_now = datetime.datetime.fromisoformat(d.pop("realNow"))

        due = SandboxClockDue.from_dict(d.pop("due"))

        missing_rates = []
        _missing_rates = d.pop("missingRates")
        for missing_rates_item_data in _missing_rates:
            missing_rates_item = SandboxClockMissingRatesItem.from_dict(
                missing_rates_item_data
            )

            missing_rates.append(missing_rates_item)

        sandbox_clock = cls(
            offset_ms=offset_ms,
            offset=offset,
            now=now,
            real_now=real_now,
            due=due,
            missing_rates=missing_rates,
        )

        return sandbox_clock
