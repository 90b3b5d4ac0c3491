from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.store_confirmation_answer_state import StoreConfirmationAnswerState
from ..models.store_confirmation_answer_status import StoreConfirmationAnswerStatus

T = TypeVar("T", bound="StoreConfirmationAnswer")


@_attrs_define
class StoreConfirmationAnswer:
    """The store checkout and its payment after the store's test confirmation.

    Attributes:
        state (StoreConfirmationAnswerState): The store checkout's state afterwards: SUCCEEDED after pay, FAILED after
            decline.
        status (StoreConfirmationAnswerStatus): The payment's status afterwards: SUCCEEDED after pay, FAILED after
            decline.
    """

    state: StoreConfirmationAnswerState
    status: StoreConfirmationAnswerStatus

    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        state = StoreConfirmationAnswerState(d.pop("state"))

        status = StoreConfirmationAnswerStatus(d.pop("status"))

        store_confirmation_answer = cls(
            state=state,
            status=status,
        )

        return store_confirmation_answer
