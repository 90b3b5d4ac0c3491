from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.failure_code import FailureCode
from ..models.payment_scenario_outcome import PaymentScenarioOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="PaymentScenario")


@_attrs_define
class PaymentScenario:
    """The scenario rule that matched this payment at creation. Present only on payments a rule matched.

    Attributes:
        rule_id (UUID): The rule that matched (also after it was deleted).
        name (str): The rule's name when it matched.
        outcome (PaymentScenarioOutcome): What the rule does: SUCCEEDED, FAILED or EXPIRE.
        due_at (datetime.datetime | None): When the conclusion is due (EXPIRE: the payment's expiresAt); null while a
            withdrawal awaits approval.
        concluded_at (datetime.datetime | None): When the rule concluded the payment; null before, for EXPIRE, and when
            the payment was concluded otherwise first.
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

    rule_id: UUID
    name: str
    outcome: PaymentScenarioOutcome
    due_at: datetime.datetime | None
    concluded_at: datetime.datetime | None
    failure_code: FailureCode | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        rule_id = str(self.rule_id)

        name = self.name

        outcome = self.outcome.value

        due_at: None | str
        if isinstance(self.due_at, datetime.datetime):
            due_at = self.due_at.isoformat()
        else:
            due_at = self.due_at

        concluded_at: None | str
        if isinstance(self.concluded_at, datetime.datetime):
            concluded_at = self.concluded_at.isoformat()
        else:
            concluded_at = self.concluded_at

        failure_code: str | Unset = UNSET
        if not isinstance(self.failure_code, Unset):
            failure_code = self.failure_code.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ruleId": rule_id,
                "name": name,
                "outcome": outcome,
                "dueAt": due_at,
                "concludedAt": concluded_at,
            }
        )
        if failure_code is not UNSET:
            field_dict["failureCode"] = failure_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        rule_id = UUID(d.pop("ruleId"))

        name = d.pop("name")

        outcome = PaymentScenarioOutcome(d.pop("outcome"))

        def _parse_due_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_at_type_0 = datetime.datetime.fromisoformat(data)

                return due_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        due_at = _parse_due_at(d.pop("dueAt"))

        def _parse_concluded_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                concluded_at_type_0 = datetime.datetime.fromisoformat(data)

                return concluded_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        concluded_at = _parse_concluded_at(d.pop("concludedAt"))

        _failure_code = d.pop("failureCode", UNSET)
        failure_code: FailureCode | Unset
        if isinstance(_failure_code, Unset):
            failure_code = UNSET
        else:
            failure_code = FailureCode(_failure_code)

        payment_scenario = cls(
            rule_id=rule_id,
            name=name,
            outcome=outcome,
            due_at=due_at,
            concluded_at=concluded_at,
            failure_code=failure_code,
        )

        return payment_scenario
