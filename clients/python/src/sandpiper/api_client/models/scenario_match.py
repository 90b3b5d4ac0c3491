from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.scenario_match_currency import ScenarioMatchCurrency
from ..models.scenario_match_direction import ScenarioMatchDirection
from ..models.scenario_match_method import ScenarioMatchMethod
from ..types import UNSET, Unset

T = TypeVar("T", bound="ScenarioMatch")


@_attrs_define
class ScenarioMatch:
    """Which new payments the rule concludes: every member given must hold. amount or referencePrefix is required.

    Attributes:
        amount (str | Unset): The exact amount, above zero, decimal text in the payment's currency, whichever it is
            ("13.13" matches 13.13 USD and 13.13 AED).
        reference_prefix (str | Unset): The reference starts with this text (case-sensitive), e.g. "fail-".
        method (ScenarioMatchMethod | Unset): Only payments of this method.
        direction (ScenarioMatchDirection | Unset): Only deposits or only withdrawals.
        currency (ScenarioMatchCurrency | Unset): Only payments in this currency.
    """

    amount: str | Unset = UNSET
    reference_prefix: str | Unset = UNSET
    method: ScenarioMatchMethod | Unset = UNSET
    direction: ScenarioMatchDirection | Unset = UNSET
    currency: ScenarioMatchCurrency | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        amount = self.amount

        reference_prefix = self.reference_prefix

        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value

        direction: str | Unset = UNSET
        if not isinstance(self.direction, Unset):
            direction = self.direction.value

        currency: str | Unset = UNSET
        if not isinstance(self.currency, Unset):
            currency = self.currency.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if amount is not UNSET:
            field_dict["amount"] = amount
        if reference_prefix is not UNSET:
            field_dict["referencePrefix"] = reference_prefix
        if method is not UNSET:
            field_dict["method"] = method
        if direction is not UNSET:
            field_dict["direction"] = direction
        if currency is not UNSET:
            field_dict["currency"] = currency

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        amount = d.pop("amount", UNSET)

        reference_prefix = d.pop("referencePrefix", UNSET)

        _method = d.pop("method", UNSET)
        method: ScenarioMatchMethod | Unset
        if isinstance(_method, Unset):
            method = UNSET
        else:
            method = ScenarioMatchMethod(_method)

        _direction = d.pop("direction", UNSET)
        direction: ScenarioMatchDirection | Unset
        if isinstance(_direction, Unset):
            direction = UNSET
        else:
            direction = ScenarioMatchDirection(_direction)

        _currency = d.pop("currency", UNSET)
        currency: ScenarioMatchCurrency | Unset
        if isinstance(_currency, Unset):
            currency = UNSET
        else:
            currency = ScenarioMatchCurrency(_currency)

        scenario_match = cls(
            amount=amount,
            reference_prefix=reference_prefix,
            method=method,
            direction=direction,
            currency=currency,
        )

        return scenario_match
