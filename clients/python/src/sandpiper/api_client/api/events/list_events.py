from http import HTTPStatus
from typing import Any
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.event_list import EventList
from ...models.list_events_type import ListEventsType
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    type_: ListEventsType | Unset = UNSET,
    payment_id: UUID | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params["limit"] = limit

    json_type_: str | Unset = UNSET
    if not isinstance(type_, Unset):
        json_type_ = type_.value

    params["type"] = json_type_

    json_payment_id: str | Unset = UNSET
    if not isinstance(payment_id, Unset):
        json_payment_id = str(payment_id)
    params["paymentId"] = json_payment_id

    params["from"] = from_

    params["to"] = to

    json_after: str | Unset = UNSET
    if not isinstance(after, Unset):
        json_after = str(after)
    params["after"] = json_after

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | EventList | None:
    if response.status_code == 200:
        response_200 = EventList.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
) -> Response[Error | EventList]:
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
    type_: ListEventsType | Unset = UNSET,
    payment_id: UUID | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> Response[Error | EventList]:
    """List the merchant's events, or follow them with a cursor

     Without `after`: the merchant's events newest first, paged like the payments list, with filters
    `type`, `paymentId` and `from`/`to` (Dubai calendar days, the end day inclusive). With `after=<event
    id>`: the events that became visible after that one, oldest first, in commit order: a follower that
    pages with the last id it read never skips an event whose transaction committed late. Each item is
    the callback envelope exactly as delivered plus the state of its latest delivery.

    Args:
        page (str | Unset): page number, >= 1; default 1 (not with after)
        limit (str | Unset): page size, 1 to 100; default 20
        type_ (ListEventsType | Unset): payment.succeeded, payment.failed or payment.expired; no
            other event types exist
        payment_id (UUID | Unset): only the events of this payment
        from_ (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        to (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        after (UUID | Unset): an event id: return the events that became visible after it, oldest
            first (commit order)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventList]
    """

    kwargs = _get_kwargs(
        page=page,
        limit=limit,
        type_=type_,
        payment_id=payment_id,
        from_=from_,
        to=to,
        after=after,
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
    type_: ListEventsType | Unset = UNSET,
    payment_id: UUID | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> Error | EventList | None:
    """List the merchant's events, or follow them with a cursor

     Without `after`: the merchant's events newest first, paged like the payments list, with filters
    `type`, `paymentId` and `from`/`to` (Dubai calendar days, the end day inclusive). With `after=<event
    id>`: the events that became visible after that one, oldest first, in commit order: a follower that
    pages with the last id it read never skips an event whose transaction committed late. Each item is
    the callback envelope exactly as delivered plus the state of its latest delivery.

    Args:
        page (str | Unset): page number, >= 1; default 1 (not with after)
        limit (str | Unset): page size, 1 to 100; default 20
        type_ (ListEventsType | Unset): payment.succeeded, payment.failed or payment.expired; no
            other event types exist
        payment_id (UUID | Unset): only the events of this payment
        from_ (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        to (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        after (UUID | Unset): an event id: return the events that became visible after it, oldest
            first (commit order)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventList
    """

    return sync_detailed(
        client=client,
        page=page,
        limit=limit,
        type_=type_,
        payment_id=payment_id,
        from_=from_,
        to=to,
        after=after,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    type_: ListEventsType | Unset = UNSET,
    payment_id: UUID | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> Response[Error | EventList]:
    """List the merchant's events, or follow them with a cursor

     Without `after`: the merchant's events newest first, paged like the payments list, with filters
    `type`, `paymentId` and `from`/`to` (Dubai calendar days, the end day inclusive). With `after=<event
    id>`: the events that became visible after that one, oldest first, in commit order: a follower that
    pages with the last id it read never skips an event whose transaction committed late. Each item is
    the callback envelope exactly as delivered plus the state of its latest delivery.

    Args:
        page (str | Unset): page number, >= 1; default 1 (not with after)
        limit (str | Unset): page size, 1 to 100; default 20
        type_ (ListEventsType | Unset): payment.succeeded, payment.failed or payment.expired; no
            other event types exist
        payment_id (UUID | Unset): only the events of this payment
        from_ (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        to (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        after (UUID | Unset): an event id: return the events that became visible after it, oldest
            first (commit order)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | EventList]
    """

    kwargs = _get_kwargs(
        page=page,
        limit=limit,
        type_=type_,
        payment_id=payment_id,
        from_=from_,
        to=to,
        after=after,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    type_: ListEventsType | Unset = UNSET,
    payment_id: UUID | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    after: UUID | Unset = UNSET,
) -> Error | EventList | None:
    """List the merchant's events, or follow them with a cursor

     Without `after`: the merchant's events newest first, paged like the payments list, with filters
    `type`, `paymentId` and `from`/`to` (Dubai calendar days, the end day inclusive). With `after=<event
    id>`: the events that became visible after that one, oldest first, in commit order: a follower that
    pages with the last id it read never skips an event whose transaction committed late. Each item is
    the callback envelope exactly as delivered plus the state of its latest delivery.

    Args:
        page (str | Unset): page number, >= 1; default 1 (not with after)
        limit (str | Unset): page size, 1 to 100; default 20
        type_ (ListEventsType | Unset): payment.succeeded, payment.failed or payment.expired; no
            other event types exist
        payment_id (UUID | Unset): only the events of this payment
        from_ (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        to (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        after (UUID | Unset): an event id: return the events that became visible after it, oldest
            first (commit order)

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | EventList
    """

    return (
        await asyncio_detailed(
            client=client,
            page=page,
            limit=limit,
            type_=type_,
            payment_id=payment_id,
            from_=from_,
            to=to,
            after=after,
        )
    ).parsed
