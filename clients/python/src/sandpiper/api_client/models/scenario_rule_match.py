from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.scenario_rule_match_direction_type_0 import (
    ScenarioRuleMatchDirectionType0,
)
from ..models.scenario_rule_match_method_type_0 import ScenarioRuleMatchMethodType0

T = TypeVar("T", bound="ScenarioRuleMatch")


@_attrs_define
class ScenarioRuleMatch:
    """What the rule matches.

    Attributes:
        amount (None | str): Exact amount, decimal text in the payment's currency (any currency), or null.
        reference_prefix (None | str): Reference prefix, or null.
        method (None | ScenarioRuleMatchMethodType0): Only this method, or null for any.
        direction (None | ScenarioRuleMatchDirectionType0): Only this direction, or null for any.
        currency (None | str): Only this currency, or null for any.
    """

    amount: None | str
    reference_prefix: None | str
    method: None | ScenarioRuleMatchMethodType0
    direction: None | ScenarioRuleMatchDirectionType0
    currency: None | str

    def to_dict(self) -> dict[str, Any]:
        amount: None | str
        amount = self.amount

        reference_prefix: None | str
        reference_prefix = self.reference_prefix

        method: None | str
        if isinstance(self.method, ScenarioRuleMatchMethodType0):
            method = self.method.value
        else:
            method = self.method

        direction: None | str
        if isinstance(self.direction, ScenarioRuleMatchDirectionType0):
            direction = self.direction.value
        else:
            direction = self.direction

        currency: None | str
        currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "amount": amount,
                "referencePrefix": reference_prefix,
                "method": method,
                "direction": direction,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        amount = _parse_amount(d.pop("amount"))

        def _parse_reference_prefix(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reference_prefix = _parse_reference_prefix(d.pop("referencePrefix"))

        def _parse_method(data: object) -> None | ScenarioRuleMatchMethodType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                method_type_0 = ScenarioRuleMatchMethodType0(data)

                return method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScenarioRuleMatchMethodType0, data)

        method = _parse_method(d.pop("method"))

        def _parse_direction(data: object) -> None | ScenarioRuleMatchDirectionType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_0 = ScenarioRuleMatchDirectionType0(data)

                return direction_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScenarioRuleMatchDirectionType0, data)

        direction = _parse_direction(d.pop("direction"))

        def _parse_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        currency = _parse_currency(d.pop("currency"))

        scenario_rule_match = cls(
            amount=amount,
            reference_prefix=reference_prefix,
            method=method,
            direction=direction,
            currency=currency,
        )

        return scenario_rule_match
