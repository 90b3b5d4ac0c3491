from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.request_log_entry_resource_type_0_type import (
    RequestLogEntryResourceType0Type,
)

T = TypeVar("T", bound="RequestLogEntryResourceType0")


@_attrs_define
class RequestLogEntryResourceType0:
    """
    Attributes:
        type_ (RequestLogEntryResourceType0Type): what the request was about
        id (UUID): its id
    """

    type_: RequestLogEntryResourceType0Type
    id: UUID

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        id = str(self.id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = RequestLogEntryResourceType0Type(d.pop("type"))

        id = UUID(d.pop("id"))

        request_log_entry_resource_type_0 = cls(
            type_=type_,
            id=id,
        )

        return request_log_entry_resource_type_0
