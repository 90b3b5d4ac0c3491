from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.listener_forward_kind import ListenerForwardKind
from ..models.listener_forward_state import ListenerForwardState

if TYPE_CHECKING:
    from ..models.listener_forward_attempts_item import ListenerForwardAttemptsItem


T = TypeVar("T", bound="ListenerForward")


@_attrs_define
class ListenerForward:
    """
    Attributes:
        id (UUID): the forward's id (the listener's forwardId)
        kind (ListenerForwardKind): the feed item forwarded: the event, or a redelivery of it
        forward_to (str): the receiver's URL
        state (ListenerForwardState): DELIVERED once an attempt got a 2xx; RETRYING while the listener has a next
            attempt; FAILED when it stopped without a 2xx
        attempts (list[ListenerForwardAttemptsItem]): attempts, oldest first
    """

    id: UUID
    kind: ListenerForwardKind
    forward_to: str
    state: ListenerForwardState
    attempts: list[ListenerForwardAttemptsItem]

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        kind = self.kind.value

        forward_to = self.forward_to

        state = self.state.value

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "forwardTo": forward_to,
                "state": state,
                "attempts": attempts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.listener_forward_attempts_item import (
            ListenerForwardAttemptsItem,
        )

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        kind = ListenerForwardKind(d.pop("kind"))

        forward_to = d.pop("forwardTo")

        state = ListenerForwardState(d.pop("state"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = ListenerForwardAttemptsItem.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        listener_forward = cls(
            id=id,
            kind=kind,
            forward_to=forward_to,
            state=state,
            attempts=attempts,
        )

        return listener_forward
