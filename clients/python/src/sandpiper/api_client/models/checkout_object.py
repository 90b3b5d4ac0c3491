from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.checkout_object_state import CheckoutObjectState

T = TypeVar("T", bound="CheckoutObject")


@_attrs_define
class CheckoutObject:
    """Store preparation and outcome. The top-level payment status is the authority for the payment result.

    Attributes:
        store (Literal['Sandpiper Test Store']): Name of the single connected store.
        legal_name (Literal['Sandpiper Sandbox Store FZ-LLC']): Legal name of that store.
        state (CheckoutObjectState): QUEUED: keep polling; READY: send the customer to url; SUCCEEDED: update the order
            once; FAILED or REJECTED: no success; EXPIRED: discard the link.
        charge_currency (Literal['AED']): The store charges in AED only.
        charge_amount (str): The locked charge, decimal text in AED (equals the snapshot's gateway).
        url (None | str): bearer payment link: carries authority to pay; never log or publish it; null until READY
        subtotal (None | str): The basket's list total, decimal text in AED; null until READY.
        discount (None | str): The order discount (subtotal - discount = chargeAmount, at most 20 % of subtotal),
            decimal text in AED; null until READY.
        match_type (None | str): How the basket matched: EXACT_PRODUCT, EXACT_PACKAGE or DISCOUNTED_BASKET; null until
            READY.
        expires_at (datetime.datetime): End of the checkout (ISO 8601, UTC).
        error (None | str): Why the checkout was rejected or failed; null otherwise.
        live_payment (bool): Always false: sandbox.
    """

    store: Literal["Sandpiper Test Store"]
    legal_name: Literal["Sandpiper Sandbox Store FZ-LLC"]
    state: CheckoutObjectState
    charge_currency: Literal["AED"]
    charge_amount: str
    url: None | str
    subtotal: None | str
    discount: None | str
    match_type: None | str
    expires_at: datetime.datetime
    error: None | str
    live_payment: bool

    def to_dict(self) -> dict[str, Any]:
        store = self.store

        legal_name = self.legal_name

        state = self.state.value

        charge_currency = self.charge_currency

        charge_amount = self.charge_amount

        url: None | str
        url = self.url

        subtotal: None | str
        subtotal = self.subtotal

        discount: None | str
        discount = self.discount

        match_type: None | str
        match_type = self.match_type

        expires_at = self.expires_at.isoformat()

        error: None | str
        error = self.error

        live_payment = self.live_payment

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "store": store,
                "legalName": legal_name,
                "state": state,
                "chargeCurrency": charge_currency,
                "chargeAmount": charge_amount,
                "url": url,
                "subtotal": subtotal,
                "discount": discount,
                "matchType": match_type,
                "expiresAt": expires_at,
                "error": error,
                "livePayment": live_payment,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        store = cast(Literal["Sandpiper Test Store"], d.pop("store"))
        if store != "Sandpiper Test Store":
            raise ValueError(
                f"store must match const 'Sandpiper Test Store', got '{store}'"
            )

        legal_name = cast(Literal["Sandpiper Sandbox Store FZ-LLC"], d.pop("legalName"))
        if legal_name != "Sandpiper Sandbox Store FZ-LLC":
            raise ValueError(
                f"legalName must match const 'Sandpiper Sandbox Store FZ-LLC', got '{legal_name}'"
            )

        state = CheckoutObjectState(d.pop("state"))

        charge_currency = cast(Literal["AED"], d.pop("chargeCurrency"))
        if charge_currency != "AED":
            raise ValueError(
                f"chargeCurrency must match const 'AED', got '{charge_currency}'"
            )

        charge_amount = d.pop("chargeAmount")

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        def _parse_subtotal(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        subtotal = _parse_subtotal(d.pop("subtotal"))

        def _parse_discount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        discount = _parse_discount(d.pop("discount"))

        def _parse_match_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        match_type = _parse_match_type(d.pop("matchType"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        live_payment = d.pop("livePayment")

        checkout_object = cls(
            store=store,
            legal_name=legal_name,
            state=state,
            charge_currency=charge_currency,
            charge_amount=charge_amount,
            url=url,
            subtotal=subtotal,
            discount=discount,
            match_type=match_type,
            expires_at=expires_at,
            error=error,
            live_payment=live_payment,
        )

        return checkout_object
