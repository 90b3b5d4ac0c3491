from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_payment_currency import CreatePaymentCurrency
from ..models.create_payment_direction import CreatePaymentDirection
from ..models.create_payment_method import CreatePaymentMethod
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.customer import Customer


T = TypeVar("T", bound="CreatePayment")


@_attrs_define
class CreatePayment:
    """
    Attributes:
        reference (str): Your order id, 1 to 120 characters, unique among your payments (409 DUPLICATE_REFERENCE).
        amount (str): Decimal text in currency, up to 10 integer digits and 2 decimals, e.g. "1123.52"; never a JSON
            number.
        currency (CreatePaymentCurrency): ISO 4217 code; must be enabled for your merchant.
        method (CreatePaymentMethod): GATEWAY supports deposits only.
        direction (CreatePaymentDirection): A WITHDRAWAL starts PENDING_APPROVAL and needs a console approval by someone
            other than the key's owner.
        description (str | Unset): Free text for you, at most 500 characters; stored, not returned.
        customer (Customer | Unset):
    """

    reference: str
    amount: str
    currency: CreatePaymentCurrency
    method: CreatePaymentMethod
    direction: CreatePaymentDirection
    description: str | Unset = UNSET
    customer: Customer | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        amount = self.amount

        currency = self.currency.value

        method = self.method.value

        direction = self.direction.value

        description = self.description

        customer: dict[str, Any] | Unset = UNSET
        if not isinstance(self.customer, Unset):
            customer = self.customer.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "amount": amount,
                "currency": currency,
                "method": method,
                "direction": direction,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if customer is not UNSET:
            field_dict["customer"] = customer

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.customer import Customer

        d = dict(src_dict)
        reference = d.pop("reference")

        amount = d.pop("amount")

        currency = CreatePaymentCurrency(d.pop("currency"))

        method = CreatePaymentMethod(d.pop("method"))

        direction = CreatePaymentDirection(d.pop("direction"))

        description = d.pop("description", UNSET)

        _customer = d.pop("customer", UNSET)
        customer: Customer | Unset
        if isinstance(_customer, Unset):
            customer = UNSET
        else:
            customer = Customer.from_dict(_customer)

        create_payment = cls(
            reference=reference,
            amount=amount,
            currency=currency,
            method=method,
            direction=direction,
            description=description,
            customer=customer,
        )

        return create_payment
