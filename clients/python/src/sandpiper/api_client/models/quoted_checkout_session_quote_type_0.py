from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.quoted_checkout_session_quote_type_0_bank_account import (
        QuotedCheckoutSessionQuoteType0BankAccount,
    )


T = TypeVar("T", bound="QuotedCheckoutSessionQuoteType0")


@_attrs_define
class QuotedCheckoutSessionQuoteType0:
    """
    Attributes:
        rate_day (str): Dubai (UTC+4) day of the rate, YYYY-MM-DD.
        effective_rate (str): 1 unit of the chosen currency in chargeCurrency: base rate x (1 + markup) x (1 + buffer),
            decimal text.
        charge_currency (str): Always AED: the store charges in AED.
        charge_amount (str): The charge the customer is shown: decimal text in AED.
        bank_account (QuotedCheckoutSessionQuoteType0BankAccount): The service bank account shown as the receiver of the
            transfer.
    """

    rate_day: str
    effective_rate: str
    charge_currency: str
    charge_amount: str
    bank_account: QuotedCheckoutSessionQuoteType0BankAccount

    def to_dict(self) -> dict[str, Any]:
        rate_day = self.rate_day

        effective_rate = self.effective_rate

        charge_currency = self.charge_currency

        charge_amount = self.charge_amount

        bank_account = self.bank_account.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "rateDay": rate_day,
                "effectiveRate": effective_rate,
                "chargeCurrency": charge_currency,
                "chargeAmount": charge_amount,
                "bankAccount": bank_account,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.quoted_checkout_session_quote_type_0_bank_account import (
            QuotedCheckoutSessionQuoteType0BankAccount,
        )

        d = dict(src_dict)
        rate_day = d.pop("rateDay")

        effective_rate = d.pop("effectiveRate")

        charge_currency = d.pop("chargeCurrency")

        charge_amount = d.pop("chargeAmount")

        bank_account = QuotedCheckoutSessionQuoteType0BankAccount.from_dict(
            d.pop("bankAccount")
        )

        quoted_checkout_session_quote_type_0 = cls(
            rate_day=rate_day,
            effective_rate=effective_rate,
            charge_currency=charge_currency,
            charge_amount=charge_amount,
            bank_account=bank_account,
        )

        return quoted_checkout_session_quote_type_0
