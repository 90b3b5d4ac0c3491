from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="SandboxClockMoveExpired")


@_attrs_define
class SandboxClockMoveExpired:
    """What expired at the new time in the same transaction as the move; the rest of what became due is in `due`, expired
    by the background jobs within seconds.

        Attributes:
            payments (int): Payments that the move expired itself (PENDING or PENDING_APPROVAL past expiresAt at the new
                time): at most 100.
            checkout_sessions (int): Checkout sessions that the move expired itself: at most 1,000.
    """

    payments: int
    checkout_sessions: int

    def to_dict(self) -> dict[str, Any]:
        payments = self.payments

        checkout_sessions = self.checkout_sessions

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "payments": payments,
                "checkoutSessions": checkout_sessions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        payments = d.pop("payments")

        checkout_sessions = d.pop("checkoutSessions")

        sandbox_clock_move_expired = cls(
            payments=payments,
            checkout_sessions=checkout_sessions,
        )

        return sandbox_clock_move_expired
