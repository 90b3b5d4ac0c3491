from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_store_payment_currency import CreateStorePaymentCurrency
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.customer import Customer


T = TypeVar("T", bound="CreateStorePayment")


@_attrs_define
class CreateStorePayment:
    """The store charges in AED; another merchant currency needs a pricing profile with AED charge and a direct rate.
    customer.username, firstName, lastName and email are required (country when merchant policy says so): missing ones
    answer 400 CUSTOMER_PROFILE_REQUIRED.

        Attributes:
            reference (str): Your order id, 1 to 120 characters, unique among your payments (409 DUPLICATE_REFERENCE).
            amount (str): The order amount, decimal text in currency (up to 10 integer digits, 2 decimals); its AED charge
                must be AED 0.01 to 9,999,999,999.99.
            currency (CreateStorePaymentCurrency): ISO 4217 code, enabled for your merchant; other than AED it needs a
                profile charging AED and today's direct rate.
            description (str | Unset): Free text for you, at most 500 characters; stored, not returned.
            customer (Customer | Unset):
            return_url (str | Unset): Where "Return to <your name>" on the customer's ending page leads (your console's
                default when absent): https (http on this machine only in local mode), at most 2,048 characters. A customer's
                return through it is no proof of payment and carries no status: confirm the result by a verified callback or an
                authenticated read.
            cancel_url (str | Unset): Where the customer leaves to without paying (declined, expired, or left from the open
                page); returnUrl when absent: https (http on this machine only in local mode), at most 2,048 characters. A
                customer's return through it is no proof of payment and carries no status: confirm the result by a verified
                callback or an authenticated read.
    """

    reference: str
    amount: str
    currency: CreateStorePaymentCurrency
    description: str | Unset = UNSET
    customer: Customer | Unset = UNSET
    return_url: str | Unset = UNSET
    cancel_url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        amount = self.amount

        currency = self.currency.value

        description = self.description

        customer: dict[str, Any] | Unset = UNSET
        if not isinstance(self.customer, Unset):
            customer = self.customer.to_dict()

        return_url = self.return_url

        cancel_url = self.cancel_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "amount": amount,
                "currency": currency,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if customer is not UNSET:
            field_dict["customer"] = customer
        if return_url is not UNSET:
            field_dict["returnUrl"] = return_url
        if cancel_url is not UNSET:
            field_dict["cancelUrl"] = cancel_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.customer import Customer

        d = dict(src_dict)
        reference = d.pop("reference")

        amount = d.pop("amount")

        currency = CreateStorePaymentCurrency(d.pop("currency"))

        description = d.pop("description", UNSET)

        _customer = d.pop("customer", UNSET)
        customer: Customer | Unset
        if isinstance(_customer, Unset):
            customer = UNSET
        else:
            customer = Customer.from_dict(_customer)

        return_url = d.pop("returnUrl", UNSET)

        cancel_url = d.pop("cancelUrl", UNSET)

        create_store_payment = cls(
            reference=reference,
            amount=amount,
            currency=currency,
            description=description,
            customer=customer,
            return_url=return_url,
            cancel_url=cancel_url,
        )

        return create_store_payment
