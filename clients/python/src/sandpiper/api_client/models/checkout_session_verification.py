from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="CheckoutSessionVerification")


@_attrs_define
class CheckoutSessionVerification:
    """Customer verification: not configured in this sandbox.

    Attributes:
        state (Literal['NOT_CONFIGURED']): No verification method is configured.
        verified (bool): Always false.
        store_handoff_allowed (bool): Always false: a confirmed amount releases no store handoff.
    """

    state: Literal["NOT_CONFIGURED"]
    verified: bool
    store_handoff_allowed: bool

    def to_dict(self) -> dict[str, Any]:
        state = self.state

        verified = self.verified

        store_handoff_allowed = self.store_handoff_allowed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
                "verified": verified,
                "storeHandoffAllowed": store_handoff_allowed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        state = cast(Literal["NOT_CONFIGURED"], d.pop("state"))
        if state != "NOT_CONFIGURED":
            raise ValueError(f"state must match const 'NOT_CONFIGURED', got '{state}'")

        verified = d.pop("verified")

        store_handoff_allowed = d.pop("storeHandoffAllowed")

        checkout_session_verification = cls(
            state=state,
            verified=verified,
            store_handoff_allowed=store_handoff_allowed,
        )

        return checkout_session_verification
