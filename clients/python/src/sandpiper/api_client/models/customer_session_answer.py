from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.customer_session_answer_state import CustomerSessionAnswerState

T = TypeVar("T", bound="CustomerSessionAnswer")


@_attrs_define
class CustomerSessionAnswer:
    """The checkout session as the customer's page sees it after the action.

    Attributes:
        state (CustomerSessionAnswerState): The session's state afterwards: QUOTED after a quote, AWAITING_VERIFICATION
            after a confirmation (the flow's last state); EXPIRED once the link's time is over.
        amount (None | str): The amount the session holds, decimal text in currency; null before a quote.
        currency (None | str): The session's currency (ISO 4217); null before a quote.
    """

    state: CustomerSessionAnswerState
    amount: None | str
    currency: None | str

    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        amount: None | str
        amount = self.amount

        currency: None | str
        currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
                "amount": amount,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        state = CustomerSessionAnswerState(d.pop("state"))

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

        customer_session_answer = cls(
            state=state,
            amount=amount,
            currency=currency,
        )

        return customer_session_answer
