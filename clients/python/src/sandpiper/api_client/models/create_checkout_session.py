from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_checkout_session_customer import CreateCheckoutSessionCustomer


T = TypeVar("T", bound="CreateCheckoutSession")


@_attrs_define
class CreateCheckoutSession:
    """Reference and customer identity only: the customer chooses amount and currency on the hosted page. Amount, currency,
    FX rate, markup and commission members are forbidden (400 VALIDATION_ERROR naming the member); merchant-supplied
    pricing parameters are not accepted.

        Attributes:
            reference (str): Your reference, 1 to 120 characters, unique among your sessions (409 DUPLICATE_REFERENCE).
            customer (CreateCheckoutSessionCustomer): id, firstName, lastName, email and phone (international format with
                the country code) are required. A missing or blank one answers 400 CUSTOMER_PROFILE_REQUIRED naming it.
            return_url (str | Unset): Where "Return to <your name>" on the customer's ending page leads (your console's
                default when absent): https (http on this machine only in local mode), at most 2,048 characters. A customer's
                return through it is no proof of payment and carries no status: confirm the result by a verified callback or an
                authenticated read.
            cancel_url (str | Unset): Where the customer leaves to without paying (declined, expired, or left from the open
                page); returnUrl when absent: https (http on this machine only in local mode), at most 2,048 characters. A
                customer's return through it is no proof of payment and carries no status: confirm the result by a verified
                callback or an authenticated read.
            amount (Any | Unset): Forbidden: not accepted on this endpoint; the customer chooses the amount on the checkout
                page.
            currency (Any | Unset): Forbidden: not accepted on this endpoint; the customer chooses the currency on the
                checkout page.
            fx_rate (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            rate (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            exchange_rate (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are
                not accepted (pricing comes from the merchant's pricing profile).
            base_rate (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            effective_rate (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are
                not accepted (pricing comes from the merchant's pricing profile).
            settlement_rate (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters
                are not accepted (pricing comes from the merchant's pricing profile).
            markup (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            markup_bps (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            buffer (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            buffer_bps (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            commission (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            commission_bps (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are
                not accepted (pricing comes from the merchant's pricing profile).
            fee (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            reserve (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            reserve_bps (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are
                not accepted (pricing comes from the merchant's pricing profile).
            pricing (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are not
                accepted (pricing comes from the merchant's pricing profile).
            charge_amount (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters are
                not accepted (pricing comes from the merchant's pricing profile).
            charge_currency (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing parameters
                are not accepted (pricing comes from the merchant's pricing profile).
            settlement_currency (Any | Unset): Forbidden: not accepted on this endpoint; merchant-supplied pricing
                parameters are not accepted (pricing comes from the merchant's pricing profile).
    """

    reference: str
    customer: CreateCheckoutSessionCustomer
    return_url: str | Unset = UNSET
    cancel_url: str | Unset = UNSET
    amount: Any | Unset = UNSET
    currency: Any | Unset = UNSET
    fx_rate: Any | Unset = UNSET
    rate: Any | Unset = UNSET
    exchange_rate: Any | Unset = UNSET
    base_rate: Any | Unset = UNSET
    effective_rate: Any | Unset = UNSET
    settlement_rate: Any | Unset = UNSET
    markup: Any | Unset = UNSET
    markup_bps: Any | Unset = UNSET
    buffer: Any | Unset = UNSET
    buffer_bps: Any | Unset = UNSET
    commission: Any | Unset = UNSET
    commission_bps: Any | Unset = UNSET
    fee: Any | Unset = UNSET
    reserve: Any | Unset = UNSET
    reserve_bps: Any | Unset = UNSET
    pricing: Any | Unset = UNSET
    charge_amount: Any | Unset = UNSET
    charge_currency: Any | Unset = UNSET
    settlement_currency: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reference = self.reference

        customer = self.customer.to_dict()

        return_url = self.return_url

        cancel_url = self.cancel_url

        amount = self.amount

        currency = self.currency

        fx_rate = self.fx_rate

        rate = self.rate

        exchange_rate = self.exchange_rate

        base_rate = self.base_rate

        effective_rate = self.effective_rate

        settlement_rate = self.settlement_rate

        markup = self.markup

        markup_bps = self.markup_bps

        buffer = self.buffer

        buffer_bps = self.buffer_bps

        commission = self.commission

        commission_bps = self.commission_bps

        fee = self.fee

        reserve = self.reserve

        reserve_bps = self.reserve_bps

        pricing = self.pricing

        charge_amount = self.charge_amount

        charge_currency = self.charge_currency

        settlement_currency = self.settlement_currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reference": reference,
                "customer": customer,
            }
        )
        if return_url is not UNSET:
            field_dict["returnUrl"] = return_url
        if cancel_url is not UNSET:
            field_dict["cancelUrl"] = cancel_url
        if amount is not UNSET:
            field_dict["amount"] = amount
        if currency is not UNSET:
            field_dict["currency"] = currency
        if fx_rate is not UNSET:
            field_dict["fxRate"] = fx_rate
        if rate is not UNSET:
            field_dict["rate"] = rate
        if exchange_rate is not UNSET:
            field_dict["exchangeRate"] = exchange_rate
        if base_rate is not UNSET:
            field_dict["baseRate"] = base_rate
        if effective_rate is not UNSET:
            field_dict["effectiveRate"] = effective_rate
        if settlement_rate is not UNSET:
            field_dict["settlementRate"] = settlement_rate
        if markup is not UNSET:
            field_dict["markup"] = markup
        if markup_bps is not UNSET:
            field_dict["markupBps"] = markup_bps
        if buffer is not UNSET:
            field_dict["buffer"] = buffer
        if buffer_bps is not UNSET:
            field_dict["bufferBps"] = buffer_bps
        if commission is not UNSET:
            field_dict["commission"] = commission
        if commission_bps is not UNSET:
            field_dict["commissionBps"] = commission_bps
        if fee is not UNSET:
            field_dict["fee"] = fee
        if reserve is not UNSET:
            field_dict["reserve"] = reserve
        if reserve_bps is not UNSET:
            field_dict["reserveBps"] = reserve_bps
        if pricing is not UNSET:
            field_dict["pricing"] = pricing
        if charge_amount is not UNSET:
            field_dict["chargeAmount"] = charge_amount
        if charge_currency is not UNSET:
            field_dict["chargeCurrency"] = charge_currency
        if settlement_currency is not UNSET:
            field_dict["settlementCurrency"] = settlement_currency

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_checkout_session_customer import (
            CreateCheckoutSessionCustomer,
        )

        d = dict(src_dict)
        reference = d.pop("reference")

        customer = CreateCheckoutSessionCustomer.from_dict(d.pop("customer"))

        return_url = d.pop("returnUrl", UNSET)

        cancel_url = d.pop("cancelUrl", UNSET)

        amount = d.pop("amount", UNSET)

        currency = d.pop("currency", UNSET)

        fx_rate = d.pop("fxRate", UNSET)

        rate = d.pop("rate", UNSET)

        exchange_rate = d.pop("exchangeRate", UNSET)

        base_rate = d.pop("baseRate", UNSET)

        effective_rate = d.pop("effectiveRate", UNSET)

        settlement_rate = d.pop("settlementRate", UNSET)

        markup = d.pop("markup", UNSET)

        markup_bps = d.pop("markupBps", UNSET)

        buffer = d.pop("buffer", UNSET)

        buffer_bps = d.pop("bufferBps", UNSET)

        commission = d.pop("commission", UNSET)

        commission_bps = d.pop("commissionBps", UNSET)

        fee = d.pop("fee", UNSET)

        reserve = d.pop("reserve", UNSET)

        reserve_bps = d.pop("reserveBps", UNSET)

        pricing = d.pop("pricing", UNSET)

        charge_amount = d.pop("chargeAmount", UNSET)

        charge_currency = d.pop("chargeCurrency", UNSET)

        settlement_currency = d.pop("settlementCurrency", UNSET)

        create_checkout_session = cls(
            reference=reference,
            customer=customer,
            return_url=return_url,
            cancel_url=cancel_url,
            amount=amount,
            currency=currency,
            fx_rate=fx_rate,
            rate=rate,
            exchange_rate=exchange_rate,
            base_rate=base_rate,
            effective_rate=effective_rate,
            settlement_rate=settlement_rate,
            markup=markup,
            markup_bps=markup_bps,
            buffer=buffer,
            buffer_bps=buffer_bps,
            commission=commission,
            commission_bps=commission_bps,
            fee=fee,
            reserve=reserve,
            reserve_bps=reserve_bps,
            pricing=pricing,
            charge_amount=charge_amount,
            charge_currency=charge_currency,
            settlement_currency=settlement_currency,
        )

        return create_checkout_session
