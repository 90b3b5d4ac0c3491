from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.failure_code import FailureCode
from ..models.scenario_rule_outcome import ScenarioRuleOutcome
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scenario_rule_match import ScenarioRuleMatch


T = TypeVar("T", bound="ScenarioRule")


@_attrs_define
class ScenarioRule:
    """A sandbox scenario rule: new payments it matches are concluded automatically.

    Attributes:
        id (UUID): Rule id.
        name (str): The rule's name.
        enabled (bool): Whether the rule applies to new payments.
        position (int): Order among the merchant's rules: the first enabled match wins.
        match (ScenarioRuleMatch): What the rule matches.
        outcome (ScenarioRuleOutcome): SUCCEEDED, FAILED or EXPIRE.
        delay_ms (int): Delay in milliseconds before the conclusion.
        created_at (datetime.datetime): Creation time (ISO 8601, UTC).
        updated_at (datetime.datetime): Last change (ISO 8601, UTC).
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

    id: UUID
    name: str
    enabled: bool
    position: int
    match: ScenarioRuleMatch
    outcome: ScenarioRuleOutcome
    delay_ms: int
    created_at: datetime.datetime
    updated_at: datetime.datetime
    failure_code: FailureCode | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        enabled = self.enabled

        position = self.position

        match = self.match.to_dict()

        outcome = self.outcome.value

        delay_ms = self.delay_ms

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        failure_code: str | Unset = UNSET
        if not isinstance(self.failure_code, Unset):
            failure_code = self.failure_code.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "enabled": enabled,
                "position": position,
                "match": match,
                "outcome": outcome,
                "delayMs": delay_ms,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )
        if failure_code is not UNSET:
            field_dict["failureCode"] = failure_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scenario_rule_match import ScenarioRuleMatch

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        enabled = d.pop("enabled")

        position = d.pop("position")

        match = ScenarioRuleMatch.from_dict(d.pop("match"))

        outcome = ScenarioRuleOutcome(d.pop("outcome"))

        delay_ms = d.pop("delayMs")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        _failure_code = d.pop("failureCode", UNSET)
        failure_code: FailureCode | Unset
        if isinstance(_failure_code, Unset):
            failure_code = UNSET
        else:
            failure_code = FailureCode(_failure_code)

        scenario_rule = cls(
            id=id,
            name=name,
            enabled=enabled,
            position=position,
            match=match,
            outcome=outcome,
            delay_ms=delay_ms,
            created_at=created_at,
            updated_at=updated_at,
            failure_code=failure_code,
        )

        return scenario_rule
