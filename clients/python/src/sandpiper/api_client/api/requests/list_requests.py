import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_requests_method import ListRequestsMethod
from ...models.request_log_list import RequestLogList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    status: str | Unset = UNSET,
    path: str | Unset = UNSET,
    method: ListRequestsMethod | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    key_prefix: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params["limit"] = limit

    params["status"] = status

    params["path"] = path

    json_method: str | Unset = UNSET
    if not isinstance(method, Unset):
        json_method = method.value

    params["method"] = json_method

    params["errorCode"] = error_code

    params["idempotencyKey"] = idempotency_key

    params["keyPrefix"] = key_prefix

    json_since: str | Unset = UNSET
    if not isinstance(since, Unset):
        json_since = since.isoformat()
    params["since"] = json_since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/requests",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RequestLogList | None:
    if response.status_code == 200:
        response_200 = RequestLogList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | RequestLogList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    status: str | Unset = UNSET,
    path: str | Unset = UNSET,
    method: ListRequestsMethod | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    key_prefix: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
) -> Response[Error | RequestLogList]:
    """List the merchant's API requests (request log)

     Every `/v1` request sent with one of the merchant's keys, newest first, paged like the payments
    list: time, key prefix, method, path, status, error code, requestId, Idempotency-Key and whether the
    answer was a replay, latency, and the request and response bodies with secrets and bearer links
    redacted, cut at 8 KiB. Filters: `status` (a class such as `4xx`, or a status), `path` (a prefix),
    `method`, `errorCode`, `idempotencyKey`, `keyPrefix`, `since`. Requests are kept 14 days (the
    operator may change that) and show up within about a second of their answer.

    Args:
        page (str | Unset): page number, >= 1; default 1
        limit (str | Unset): page size, 1 to 100; default 20
        status (str | Unset): only answers of this status class (2xx, 3xx, 4xx, 5xx) or status
            (e.g. 409)
        path (str | Unset): only requests whose path starts with this, e.g. /v1/payments
        method (ListRequestsMethod | Unset): only requests of this method
        error_code (str | Unset): only error answers with this code
        idempotency_key (str | Unset): only requests sent with this idempotency key (the header's
            value)
        key_prefix (str | Unset): only requests of the API key with this prefix
        since (datetime.datetime | Unset): only requests at or after this time (ISO 8601, UTC);
            with limit, what `sandpiper logs tail` follows

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RequestLogList]
    """

    kwargs = _get_kwargs(
        page=page,
        limit=limit,
        status=status,
        path=path,
        method=method,
        error_code=error_code,
        idempotency_key=idempotency_key,
        key_prefix=key_prefix,
        since=since,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    status: str | Unset = UNSET,
    path: str | Unset = UNSET,
    method: ListRequestsMethod | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    key_prefix: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
) -> Error | RequestLogList | None:
    """List the merchant's API requests (request log)

     Every `/v1` request sent with one of the merchant's keys, newest first, paged like the payments
    list: time, key prefix, method, path, status, error code, requestId, Idempotency-Key and whether the
    answer was a replay, latency, and the request and response bodies with secrets and bearer links
    redacted, cut at 8 KiB. Filters: `status` (a class such as `4xx`, or a status), `path` (a prefix),
    `method`, `errorCode`, `idempotencyKey`, `keyPrefix`, `since`. Requests are kept 14 days (the
    operator may change that) and show up within about a second of their answer.

    Args:
        page (str | Unset): page number, >= 1; default 1
        limit (str | Unset): page size, 1 to 100; default 20
        status (str | Unset): only answers of this status class (2xx, 3xx, 4xx, 5xx) or status
            (e.g. 409)
        path (str | Unset): only requests whose path starts with this, e.g. /v1/payments
        method (ListRequestsMethod | Unset): only requests of this method
        error_code (str | Unset): only error answers with this code
        idempotency_key (str | Unset): only requests sent with this idempotency key (the header's
            value)
        key_prefix (str | Unset): only requests of the API key with this prefix
        since (datetime.datetime | Unset): only requests at or after this time (ISO 8601, UTC);
            with limit, what `sandpiper logs tail` follows

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RequestLogList
    """

    return sync_detailed(
        client=client,
        page=page,
        limit=limit,
        status=status,
        path=path,
        method=method,
        error_code=error_code,
        idempotency_key=idempotency_key,
        key_prefix=key_prefix,
        since=since,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    status: str | Unset = UNSET,
    path: str | Unset = UNSET,
    method: ListRequestsMethod | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    key_prefix: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
) -> Response[Error | RequestLogList]:
    """List the merchant's API requests (request log)

     Every `/v1` request sent with one of the merchant's keys, newest first, paged like the payments
    list: time, key prefix, method, path, status, error code, requestId, Idempotency-Key and whether the
    answer was a replay, latency, and the request and response bodies with secrets and bearer links
    redacted, cut at 8 KiB. Filters: `status` (a class such as `4xx`, or a status), `path` (a prefix),
    `method`, `errorCode`, `idempotencyKey`, `keyPrefix`, `since`. Requests are kept 14 days (the
    operator may change that) and show up within about a second of their answer.

    Args:
        page (str | Unset): page number, >= 1; default 1
        limit (str | Unset): page size, 1 to 100; default 20
        status (str | Unset): only answers of this status class (2xx, 3xx, 4xx, 5xx) or status
            (e.g. 409)
        path (str | Unset): only requests whose path starts with this, e.g. /v1/payments
        method (ListRequestsMethod | Unset): only requests of this method
        error_code (str | Unset): only error answers with this code
        idempotency_key (str | Unset): only requests sent with this idempotency key (the header's
            value)
        key_prefix (str | Unset): only requests of the API key with this prefix
        since (datetime.datetime | Unset): only requests at or after this time (ISO 8601, UTC);
            with limit, what `sandpiper logs tail` follows

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RequestLogList]
    """

    kwargs = _get_kwargs(
        page=page,
        limit=limit,
        status=status,
        path=path,
        method=method,
        error_code=error_code,
        idempotency_key=idempotency_key,
        key_prefix=key_prefix,
        since=since,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    status: str | Unset = UNSET,
    path: str | Unset = UNSET,
    method: ListRequestsMethod | Unset = UNSET,
    error_code: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    key_prefix: str | Unset = UNSET,
    since: datetime.datetime | Unset = UNSET,
) -> Error | RequestLogList | None:
    """List the merchant's API requests (request log)

     Every `/v1` request sent with one of the merchant's keys, newest first, paged like the payments
    list: time, key prefix, method, path, status, error code, requestId, Idempotency-Key and whether the
    answer was a replay, latency, and the request and response bodies with secrets and bearer links
    redacted, cut at 8 KiB. Filters: `status` (a class such as `4xx`, or a status), `path` (a prefix),
    `method`, `errorCode`, `idempotencyKey`, `keyPrefix`, `since`. Requests are kept 14 days (the
    operator may change that) and show up within about a second of their answer.

    Args:
        page (str | Unset): page number, >= 1; default 1
        limit (str | Unset): page size, 1 to 100; default 20
        status (str | Unset): only answers of this status class (2xx, 3xx, 4xx, 5xx) or status
            (e.g. 409)
        path (str | Unset): only requests whose path starts with this, e.g. /v1/payments
        method (ListRequestsMethod | Unset): only requests of this method
        error_code (str | Unset): only error answers with this code
        idempotency_key (str | Unset): only requests sent with this idempotency key (the header's
            value)
        key_prefix (str | Unset): only requests of the API key with this prefix
        since (datetime.datetime | Unset): only requests at or after this time (ISO 8601, UTC);
            with limit, what `sandpiper logs tail` follows

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RequestLogList
    """

    return (
        await asyncio_detailed(
            client=client,
            page=page,
            limit=limit,
            status=status,
            path=path,
            method=method,
            error_code=error_code,
            idempotency_key=idempotency_key,
            key_prefix=key_prefix,
            since=since,
        )
    ).parsed
