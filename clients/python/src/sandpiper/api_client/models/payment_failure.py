from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.failure_code import FailureCode

T = TypeVar("T", bound="PaymentFailure")


@_attrs_define
class PaymentFailure:
    """Why the payment failed. Present only on a FAILED payment concluded with a failure code; absent otherwise.

    Attributes:
        code (FailureCode): Why the payment failed (docs: Failure codes):
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
        message (str): The code's default human message.
    """

    code: FailureCode
    message: str

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = FailureCode(d.pop("code"))

        message = d.pop("message")

        payment_failure = cls(
            code=code,
            message=message,
        )

        return payment_failure
