from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.error_code import ErrorCode

if TYPE_CHECKING:
    from ..models.request_log_entry_resource_type_0 import RequestLogEntryResourceType0


T = TypeVar("T", bound="RequestLogEntry")


@_attrs_define
class RequestLogEntry:
    """One API request as the request log keeps it.

    Attributes:
        request_id (UUID): the request's id (its X-Request-Id header and the requestId of an error answer)
        created_at (datetime.datetime): when the request arrived (ISO 8601, UTC)
        key_prefix (str): the first characters of the API key that sent it (never the key)
        method (str): HTTP method
        path (str): the path, e.g. /v1/payments
        query (None | str): the query string without `?`, or null
        status (int): the HTTP status answered
        error_code (ErrorCode | None): the error code of an error answer (one of ErrorCode); null for a success
        idempotency_key (None | str): the Idempotency-Key sent, or null
        replayed (bool): true when the answer was the stored answer of an earlier request with the same Idempotency-Key
        latency_ms (int): time to the answer's first byte, milliseconds
        request_body (None | str): the request body as JSON text, secrets and bearer links redacted, cut at 8 KiB
        response_body (None | str): the answer's body as JSON text, secrets and bearer links redacted, cut at 8 KiB;
            null for an event stream
        resource (None | RequestLogEntryResourceType0): the payment, event or checkout session the request created or
            read; null for lists and failed creates
    """

    request_id: UUID
    created_at: datetime.datetime
    key_prefix: str
    method: str
    path: str
    query: None | str
    status: int
    error_code: ErrorCode | None
    idempotency_key: None | str
    replayed: bool
    latency_ms: int
    request_body: None | str
    response_body: None | str
    resource: None | RequestLogEntryResourceType0

    def to_dict(self) -> dict[str, Any]:
        from ..models.request_log_entry_resource_type_0 import (
            RequestLogEntryResourceType0,
        )

        request_id = str(self.request_id)

        created_at = self.created_at.isoformat()

        key_prefix = self.key_prefix

        method = self.method

        path = self.path

        query: None | str
        query = self.query

        status = self.status

        error_code: None | str
        if isinstance(self.error_code, ErrorCode):
            error_code = self.error_code.value
        else:
            error_code = self.error_code

        idempotency_key: None | str
        idempotency_key = self.idempotency_key

        replayed = self.replayed

        latency_ms = self.latency_ms

        request_body: None | str
        request_body = self.request_body

        response_body: None | str
        response_body = self.response_body

        resource: dict[str, Any] | None
        if isinstance(self.resource, RequestLogEntryResourceType0):
            resource = self.resource.to_dict()
        else:
            resource = self.resource

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "requestId": request_id,
                "createdAt": created_at,
                "keyPrefix": key_prefix,
                "method": method,
                "path": path,
                "query": query,
                "status": status,
                "errorCode": error_code,
                "idempotencyKey": idempotency_key,
                "replayed": replayed,
                "latencyMs": latency_ms,
                "requestBody": request_body,
                "responseBody": response_body,
                "resource": resource,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.request_log_entry_resource_type_0 import (
            RequestLogEntryResourceType0,
        )

        d = dict(src_dict)
        request_id = UUID(d.pop("requestId"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        key_prefix = d.pop("keyPrefix")

        method = d.pop("method")

        path = d.pop("path")

        def _parse_query(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        query = _parse_query(d.pop("query"))

        status = d.pop("status")

        def _parse_error_code(data: object) -> ErrorCode | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                error_code_type_0 = ErrorCode(data)

                return error_code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorCode | None, data)

        error_code = _parse_error_code(d.pop("errorCode"))

        def _parse_idempotency_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        idempotency_key = _parse_idempotency_key(d.pop("idempotencyKey"))

        replayed = d.pop("replayed")

        latency_ms = d.pop("latencyMs")

        def _parse_request_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_body = _parse_request_body(d.pop("requestBody"))

        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("responseBody"))

        def _parse_resource(data: object) -> None | RequestLogEntryResourceType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                resource_type_0 = RequestLogEntryResourceType0.from_dict(data)

                return resource_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RequestLogEntryResourceType0, data)

        resource = _parse_resource(d.pop("resource"))

        request_log_entry = cls(
            request_id=request_id,
            created_at=created_at,
            key_prefix=key_prefix,
            method=method,
            path=path,
            query=query,
            status=status,
            error_code=error_code,
            idempotency_key=idempotency_key,
            replayed=replayed,
            latency_ms=latency_ms,
            request_body=request_body,
            response_body=response_body,
            resource=resource,
        )

        return request_log_entry
