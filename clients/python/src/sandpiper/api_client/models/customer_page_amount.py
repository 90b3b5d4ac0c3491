from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.customer_page_amount_currency import CustomerPageAmountCurrency

T = TypeVar("T", bound="CustomerPageAmount")


@_attrs_define
class CustomerPageAmount:
    """What the customer entered on the checkout page. Confirm repeats the quoted pair, so a stale page never confirms a
    total the customer did not see.

        Attributes:
            amount (str): The amount the customer entered: decimal text in currency, up to 10 integer digits and 2 decimals,
                e.g. "250.00".
            currency (CustomerPageAmountCurrency): The currency the customer chose: one the page offers (the merchant's
                enabled ones priced in AED; AED always).
    """

    amount: str
    currency: CustomerPageAmountCurrency

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

        currency = CustomerPageAmountCurrency(d.pop("currency"))

        customer_page_amount = cls(
            amount=amount,
            currency=currency,
        )

        return customer_page_amount
