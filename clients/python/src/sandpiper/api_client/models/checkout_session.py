from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.checkout_session_state import CheckoutSessionState

if TYPE_CHECKING:
    from ..models.checkout_session_customer_checkout import (
        CheckoutSessionCustomerCheckout,
    )
    from ..models.checkout_session_verification import CheckoutSessionVerification


T = TypeVar("T", bound="CheckoutSession")


@_attrs_define
class CheckoutSession:
    """A customer amount-entry session. Amount confirmation does not create a payment and is not payment success.

    Attributes:
        id (UUID): Session id.
        reference (str): Your reference, unique among your sessions.
        state (CheckoutSessionState): AWAITING_AMOUNT -> QUOTED (customer chose amount and currency) ->
            AWAITING_VERIFICATION (customer confirmed the total); EXPIRED at customerCheckout.expiresAt.
        customer_checkout (CheckoutSessionCustomerCheckout): The customer's page: give url to the customer.
        amount (None | str): The amount the customer chose, decimal text in currency; null before.
        currency (None | str): The currency the customer chose (ISO 4217); null before.
        verification (CheckoutSessionVerification): Customer verification: not configured in this sandbox.
        payment_id (None): Always null: a session creates no payment.
        store_checkout_url (None): Always null.
        environment (Literal['sandbox']): Always sandbox.
        live_payment (bool): Always false.
    """

    id: UUID
    reference: str
    state: CheckoutSessionState
    customer_checkout: CheckoutSessionCustomerCheckout
    amount: None | str
    currency: None | str
    verification: CheckoutSessionVerification
    payment_id: None
    store_checkout_url: None
    environment: Literal["sandbox"]
    live_payment: bool

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        reference = self.reference

        state = self.state.value

        customer_checkout = self.customer_checkout.to_dict()

        amount: None | str
        amount = self.amount

        currency: None | str
        currency = self.currency

        verification = self.verification.to_dict()

        payment_id = self.payment_id

        store_checkout_url = self.store_checkout_url

        environment = self.environment

        live_payment = self.live_payment

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "reference": reference,
                "state": state,
                "customerCheckout": customer_checkout,
                "amount": amount,
                "currency": currency,
                "verification": verification,
                "paymentId": payment_id,
                "storeCheckoutUrl": store_checkout_url,
                "environment": environment,
                "livePayment": live_payment,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.checkout_session_customer_checkout import (
            CheckoutSessionCustomerCheckout,
        )
        from ..models.checkout_session_verification import (
            CheckoutSessionVerification,
        )

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        reference = d.pop("reference")

        state = CheckoutSessionState(d.pop("state"))

        customer_checkout = CheckoutSessionCustomerCheckout.from_dict(
            d.pop("customerCheckout")
        )

        def _parse_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        amount = _parse_amount(d.pop("amount"))

        def _parse_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        currency = _parse_currency(d.pop("currency"))

        verification = CheckoutSessionVerification.from_dict(d.pop("verification"))

        payment_id = d.pop("paymentId")

        store_checkout_url = d.pop("storeCheckoutUrl")

        environment = cast(Literal["sandbox"], d.pop("environment"))
        if environment != "sandbox":
            raise ValueError(
                f"environment must match const 'sandbox', got '{environment}'"
            )

        live_payment = d.pop("livePayment")

        checkout_session = cls(
            id=id,
            reference=reference,
            state=state,
            customer_checkout=customer_checkout,
            amount=amount,
            currency=currency,
            verification=verification,
            payment_id=payment_id,
            store_checkout_url=store_checkout_url,
            environment=environment,
            live_payment=live_payment,
        )

        return checkout_session
