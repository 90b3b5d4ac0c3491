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

from ..models.quoted_checkout_session_state import QuotedCheckoutSessionState

if TYPE_CHECKING:
    from ..models.quoted_checkout_session_customer_checkout import (
        QuotedCheckoutSessionCustomerCheckout,
    )
    from ..models.quoted_checkout_session_quote_type_0 import (
        QuotedCheckoutSessionQuoteType0,
    )
    from ..models.quoted_checkout_session_verification import (
        QuotedCheckoutSessionVerification,
    )


T = TypeVar("T", bound="QuotedCheckoutSession")


@_attrs_define
class QuotedCheckoutSession:
    """A checkout session as GET /v1/checkout-sessions/{id} shows it, plus the quote the customer sees on the page.

    Attributes:
        id (UUID): Session id.
        reference (str): Your reference, unique among your sessions.
        state (QuotedCheckoutSessionState): AWAITING_AMOUNT -> QUOTED (customer chose amount and currency) ->
            AWAITING_VERIFICATION (customer confirmed the total); EXPIRED at customerCheckout.expiresAt.
        customer_checkout (QuotedCheckoutSessionCustomerCheckout): The customer's page: give url to the customer.
        amount (None | str): The amount the customer chose, decimal text in currency; null before.
        currency (None | str): The currency the customer chose (ISO 4217); null before.
        verification (QuotedCheckoutSessionVerification): Customer verification: not configured in this sandbox.
        payment_id (None): Always null: a session creates no payment.
        store_checkout_url (None): Always null.
        environment (Literal['sandbox']): Always sandbox.
        live_payment (bool): Always false.
        quote (None | QuotedCheckoutSessionQuoteType0): What the customer sees for the chosen amount; null before a
            quote.
    """

    id: UUID
    reference: str
    state: QuotedCheckoutSessionState
    customer_checkout: QuotedCheckoutSessionCustomerCheckout
    amount: None | str
    currency: None | str
    verification: QuotedCheckoutSessionVerification
    payment_id: None
    store_checkout_url: None
    environment: Literal["sandbox"]
    live_payment: bool
    quote: None | QuotedCheckoutSessionQuoteType0

    def to_dict(self) -> dict[str, Any]:
        from ..models.quoted_checkout_session_quote_type_0 import (
            QuotedCheckoutSessionQuoteType0,
        )

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

        quote: dict[str, Any] | None
        if isinstance(self.quote, QuotedCheckoutSessionQuoteType0):
            quote = self.quote.to_dict()
        else:
            quote = self.quote

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
                "quote": quote,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.quoted_checkout_session_customer_checkout import (
            QuotedCheckoutSessionCustomerCheckout,
        )
        from ..models.quoted_checkout_session_quote_type_0 import (
            QuotedCheckoutSessionQuoteType0,
        )
        from ..models.quoted_checkout_session_verification import (
            QuotedCheckoutSessionVerification,
        )

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        reference = d.pop("reference")

        state = QuotedCheckoutSessionState(d.pop("state"))

        customer_checkout = QuotedCheckoutSessionCustomerCheckout.from_dict(
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

        verification = QuotedCheckoutSessionVerification.from_dict(
            d.pop("verification")
        )

        payment_id = d.pop("paymentId")

        store_checkout_url = d.pop("storeCheckoutUrl")

        environment = cast(Literal["sandbox"], d.pop("environment"))
        if environment != "sandbox":
            raise ValueError(
                f"environment must match const 'sandbox', got '{environment}'"
            )

        live_payment = d.pop("livePayment")

        def _parse_quote(data: object) -> None | QuotedCheckoutSessionQuoteType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quote_type_0 = QuotedCheckoutSessionQuoteType0.from_dict(data)

                return quote_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuotedCheckoutSessionQuoteType0, data)

        quote = _parse_quote(d.pop("quote"))

        quoted_checkout_session = cls(
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
            quote=quote,
        )

        return quoted_checkout_session
