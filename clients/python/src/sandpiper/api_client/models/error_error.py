from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.error_code import ErrorCode

T = TypeVar("T", bound="ErrorError")


@_attrs_define
class ErrorError:
    """The error.

    Attributes:
        code (ErrorCode):
        message (str): human-readable, client-safe; never a stack trace
        request_id (UUID): equals the X-Request-Id response header
    """

    code: ErrorCode
    message: str
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        code = self.code.value

        message = self.message

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "requestId": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = ErrorCode(d.pop("code"))

        message = d.pop("message")

        request_id = UUID(d.pop("requestId"))

        error_error = cls(
            code=code,
            message=message,
            request_id=request_id,
        )

        return error_error
