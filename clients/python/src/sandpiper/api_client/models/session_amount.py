from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.session_amount_currency import SessionAmountCurrency

T = TypeVar("T", bound="SessionAmount")


@_attrs_define
class SessionAmount:
    """The amount (decimal text, up to 10 integer digits and 2 decimals) and currency the customer enters on the checkout
    page; confirm repeats the quoted pair, as the page does.

        Attributes:
            amount (str): The amount the customer enters: decimal text in currency, e.g. "250.00".
            currency (SessionAmountCurrency): A currency the page offers: the merchant's enabled ones priced in AED (AED
                itself always).
    """

    amount: str
    currency: SessionAmountCurrency

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        currency = self.currency.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount")

        currency = SessionAmountCurrency(d.pop("currency"))

        session_amount = cls(
            amount=amount,
            currency=currency,
        )

        return session_amount
