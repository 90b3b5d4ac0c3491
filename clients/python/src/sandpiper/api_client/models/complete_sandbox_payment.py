from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.complete_sandbox_payment_outcome import CompleteSandboxPaymentOutcome
from ..models.failure_code import FailureCode
from ..types import UNSET, Unset

T = TypeVar("T", bound="CompleteSandboxPayment")


@_attrs_define
class CompleteSandboxPayment:
    """The sandbox result to record, and with FAILED optionally a failure code.

    Attributes:
        outcome (CompleteSandboxPaymentOutcome): The sandbox result to record.
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

    outcome: CompleteSandboxPaymentOutcome
    failure_code: FailureCode | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        failure_code: str | Unset = UNSET
        if not isinstance(self.failure_code, Unset):
            failure_code = self.failure_code.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
            }
        )
        if failure_code is not UNSET:
            field_dict["failureCode"] = failure_code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outcome = CompleteSandboxPaymentOutcome(d.pop("outcome"))

        _failure_code = d.pop("failureCode", UNSET)
        failure_code: FailureCode | Unset
        if isinstance(_failure_code, Unset):
            failure_code = UNSET
        else:
            failure_code = FailureCode(_failure_code)

        complete_sandbox_payment = cls(
            outcome=outcome,
            failure_code=failure_code,
        )

        return complete_sandbox_payment
