from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.create_scenario_rule_outcome import CreateScenarioRuleOutcome
from ..models.failure_code import FailureCode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scenario_match import ScenarioMatch


T = TypeVar("T", bound="CreateScenarioRule")


@_attrs_define
class CreateScenarioRule:
    """A new scenario rule.

    Attributes:
        name (str): A name shown on the payments the rule concludes.
        match (ScenarioMatch): Which new payments the rule concludes: every member given must hold. amount or
            referencePrefix is required.
        outcome (CreateScenarioRuleOutcome): SUCCEEDED or FAILED: concluded as by POST
            /v1/sandbox/payments/{id}/complete; EXPIRE: left to expire at expiresAt.
        enabled (bool | Unset): Off by default: a rule applies only once enabled. Default: False.
        position (int | Unset): Order among the merchant's rules (the first enabled match wins); default: after the
            last.
        delay_ms (int | Unset): Milliseconds from creation (for a withdrawal: from approval) to the conclusion, 0 to
            3600000. Ignored for EXPIRE. Default: 0.
        failure_code (FailureCode | Unset): Why the payment failed (docs: Failure codes):
            `insufficient_funds`: The customer's account does not hold enough funds for this amount. Do not retry as is: ask
            the customer to add funds or to pay with another method, then start a new payment.
            `account_closed`: The customer's account is closed. Do not retry: ask the customer for another account or
            payment method.
            `invalid_account`: The account details do not name a valid account. Do not retry: ask the customer to correct
            the account details, then start a new payment.
            `limit_exceeded`: The amount is over a limit of the customer's account or bank. Retry later (after the limit's
            period resets) or with a smaller amount; tell the customer. (retryable)
            `risk_declined`: The payment was declined by a risk check. Do not retry and do not resubmit the same payment;
            the customer may use another method or contact their bank.
            `issuer_unavailable`: The customer's bank could not be reached. Retry later with a new payment, backing off;
            nothing is wrong with the customer's details. (retryable)
            `timed_out`: The customer's bank did not confirm the payment in time. Retry later with a new payment; the
            customer was not charged. (retryable)
            `customer_cancelled`: The customer cancelled the payment. Do not retry automatically: offer the customer to pay
            again if they want to.
            `generic_decline`: The customer's bank declined the payment without giving a reason. Do not retry as is: ask the
            customer to use another method or to contact their bank.
    """

    name: str
    match: ScenarioMatch
    outcome: CreateScenarioRuleOutcome
    enabled: bool | Unset = False
    position: int | Unset = UNSET
    delay_ms: int | Unset = 0
    failure_code: FailureCode | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        match = self.match.to_dict()

        outcome = self.outcome.value

        enabled = self.enabled

        position = self.position

        delay_ms = self.delay_ms

        failure_code: str | Unset = UNSET
        if not isinstance(self.failure_code, Unset):
            failure_code = self.failure_code.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "match": match,
                "outcome": outcome,
            }
        )
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if position is not UNSET:
            field_dict["position"] = position
        if delay_ms is not UNSET:
            field_dict["delayMs"] = delay_ms
        if failure_code is not UNSET:
            field_dict["failureCode"] = failure_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scenario_match import ScenarioMatch

        d = dict(src_dict)
        name = d.pop("name")

        match = ScenarioMatch.from_dict(d.pop("match"))

        outcome = CreateScenarioRuleOutcome(d.pop("outcome"))

        enabled = d.pop("enabled", UNSET)

        position = d.pop("position", UNSET)

        delay_ms = d.pop("delayMs", UNSET)

        _failure_code = d.pop("failureCode", UNSET)
        failure_code: FailureCode | Unset
        if isinstance(_failure_code, Unset):
            failure_code = UNSET
        else:
            failure_code = FailureCode(_failure_code)

        create_scenario_rule = cls(
            name=name,
            match=match,
            outcome=outcome,
            enabled=enabled,
            position=position,
            delay_ms=delay_ms,
            failure_code=failure_code,
        )

        return create_scenario_rule
