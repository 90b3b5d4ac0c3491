from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.event_stream_page import EventStreamPage
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    types: str | Unset = UNSET,
    wait: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["types"] = types

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events/stream",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | EventStreamPage | None:
    if response.status_code == 200:
        response_200 = EventStreamPage.from_dict(response.json())

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
) -> Response[Error | EventStreamPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    cursor: str | Unset = UNSET,
    types: str | Unset = UNSET,
    wait: str | Unset = UNSET,
) -> Response[Error | EventStreamPage]:
    """Follow events and redeliveries (listeners)

     What `sandpiper listen` follows: the merchant's new events and redeliveries after `cursor`, in
    commit order. With `Accept: text/event-stream` the answer is a stream of server-sent events
    (`ready`, with the stream's `forwardToken` for `POST /v1/events/forwards` when the key has the
    `sandbox:simulate` scope, one `item` per feed item, a `heartbeat` every 5 seconds, `bye` when the
    service closes it; reconnect with the last cursor). Otherwise one JSON page, waiting up to `wait`
    seconds for a first item.

    Args:
        cursor (str | Unset): the merchant's feed position to read after (from a previous item or
            heartbeat; positions count this merchant's events and redeliveries from 1); omitted, or
            past the newest: start at the newest position
        types (str | Unset): comma-separated event types to receive; default all
        wait (str | Unset): JSON mode only: seconds to wait for a first item when there is none
            yet, 1 to 25; default 0

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventStreamPage]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        types=types,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    cursor: str | Unset = UNSET,
    types: str | Unset = UNSET,
    wait: str | Unset = UNSET,
) -> Error | EventStreamPage | None:
    """Follow events and redeliveries (listeners)

     What `sandpiper listen` follows: the merchant's new events and redeliveries after `cursor`, in
    commit order. With `Accept: text/event-stream` the answer is a stream of server-sent events
    (`ready`, with the stream's `forwardToken` for `POST /v1/events/forwards` when the key has the
    `sandbox:simulate` scope, one `item` per feed item, a `heartbeat` every 5 seconds, `bye` when the
    service closes it; reconnect with the last cursor). Otherwise one JSON page, waiting up to `wait`
    seconds for a first item.

    Args:
        cursor (str | Unset): the merchant's feed position to read after (from a previous item or
            heartbeat; positions count this merchant's events and redeliveries from 1); omitted, or
            past the newest: start at the newest position
        types (str | Unset): comma-separated event types to receive; default all
        wait (str | Unset): JSON mode only: seconds to wait for a first item when there is none
            yet, 1 to 25; default 0

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventStreamPage
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        types=types,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    cursor: str | Unset = UNSET,
    types: str | Unset = UNSET,
    wait: str | Unset = UNSET,
) -> Response[Error | EventStreamPage]:
    """Follow events and redeliveries (listeners)

     What `sandpiper listen` follows: the merchant's new events and redeliveries after `cursor`, in
    commit order. With `Accept: text/event-stream` the answer is a stream of server-sent events
    (`ready`, with the stream's `forwardToken` for `POST /v1/events/forwards` when the key has the
    `sandbox:simulate` scope, one `item` per feed item, a `heartbeat` every 5 seconds, `bye` when the
    service closes it; reconnect with the last cursor). Otherwise one JSON page, waiting up to `wait`
    seconds for a first item.

    Args:
        cursor (str | Unset): the merchant's feed position to read after (from a previous item or
            heartbeat; positions count this merchant's events and redeliveries from 1); omitted, or
            past the newest: start at the newest position
        types (str | Unset): comma-separated event types to receive; default all
        wait (str | Unset): JSON mode only: seconds to wait for a first item when there is none
            yet, 1 to 25; default 0

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventStreamPage]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        types=types,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    cursor: str | Unset = UNSET,
    types: str | Unset = UNSET,
    wait: str | Unset = UNSET,
) -> Error | EventStreamPage | None:
    """Follow events and redeliveries (listeners)

     What `sandpiper listen` follows: the merchant's new events and redeliveries after `cursor`, in
    commit order. With `Accept: text/event-stream` the answer is a stream of server-sent events
    (`ready`, with the stream's `forwardToken` for `POST /v1/events/forwards` when the key has the
    `sandbox:simulate` scope, one `item` per feed item, a `heartbeat` every 5 seconds, `bye` when the
    service closes it; reconnect with the last cursor). Otherwise one JSON page, waiting up to `wait`
    seconds for a first item.

    Args:
        cursor (str | Unset): the merchant's feed position to read after (from a previous item or
            heartbeat; positions count this merchant's events and redeliveries from 1); omitted, or
            past the newest: start at the newest position
        types (str | Unset): comma-separated event types to receive; default all
        wait (str | Unset): JSON mode only: seconds to wait for a first item when there is none
            yet, 1 to 25; default 0

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventStreamPage
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            types=types,
            wait=wait,
        )
    ).parsed
