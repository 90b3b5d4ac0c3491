from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.complete_payment_outcome import CompletePaymentOutcome

T = TypeVar("T", bound="CompletePayment")


@_attrs_define
class CompletePayment:
    """
    Attributes:
        outcome (CompletePaymentOutcome): The sandbox result to record.
    """

    outcome: CompletePaymentOutcome

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outcome = CompletePaymentOutcome(d.pop("outcome"))

        complete_payment = cls(
            outcome=outcome,
        )

        return complete_payment
