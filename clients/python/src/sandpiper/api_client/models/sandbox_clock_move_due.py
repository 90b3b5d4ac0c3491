from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SandboxClockMoveDue")


@_attrs_define
class SandboxClockMoveDue:
    """What is due at your sandbox time and still being done by the background jobs, in short batches (after a large
    advance: thousands a minute). Read this clock again until all three are 0.

        Attributes:
            payments (int): Your PENDING and PENDING_APPROVAL payments past their expiresAt at your sandbox time, not yet
                expired.
            checkout_sessions (int): Your checkout sessions past their expiresAt at your sandbox time, not yet expired.
            deliveries (int): Your callback deliveries due now and not yet attempted.
    """

    payments: int
    checkout_sessions: int
    deliveries: int

    def to_dict(self) -> dict[str, Any]:
        payments = self.payments

        checkout_sessions = self.checkout_sessions

        deliveries = self.deliveries

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "payments": payments,
                "checkoutSessions": checkout_sessions,
                "deliveries": deliveries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        payments = d.pop("payments")

        checkout_sessions = d.pop("checkoutSessions")

        deliveries = d.pop("deliveries")

        sandbox_clock_move_due = cls(
            payments=payments,
            checkout_sessions=checkout_sessions,
            deliveries=deliveries,
        )

        return sandbox_clock_move_due
