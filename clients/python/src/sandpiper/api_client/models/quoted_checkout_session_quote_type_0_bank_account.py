from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="QuotedCheckoutSessionQuoteType0BankAccount")


@_attrs_define
class QuotedCheckoutSessionQuoteType0BankAccount:
    """The service bank account shown as the receiver of the transfer.

    Attributes:
        holder (str): Account holder.
        bank_name (str): Bank name.
        iban (str): IBAN, without spaces.
    """

    holder: str
    bank_name: str
    iban: str

    def to_dict(self) -> dict[str, Any]:
        holder = self.holder

        bank_name = self.bank_name

        iban = self.iban

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "holder": holder,
                "bankName": bank_name,
                "iban": iban,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        holder = d.pop("holder")

        bank_name = d.pop("bankName")

        iban = d.pop("iban")

        quoted_checkout_session_quote_type_0_bank_account = cls(
            holder=holder,
            bank_name=bank_name,
            iban=iban,
        )

        return quoted_checkout_session_quote_type_0_bank_account
