from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.event import Event
from ...types import Response


def _get_kwargs(
    id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/events/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Event | None:
    if response.status_code == 200:
        response_200 = Event.from_dict(response.json())

        return response_200

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
) -> Response[Error | Event]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Event]:
    """Read one event with its deliveries

     The envelope exactly as it is delivered (`id`, `type`, `createdAt`, `data`), plus a separate
    `delivery` member: the state of the latest delivery to the configured callback address and every
    delivery with its attempts; and `forwards`: what `sandpiper listen` processes reported of forwarding
    the event to a receiver (each forward with its attempts and whether it was DELIVERED). Listener
    forwards are not deliveries and never change a delivery.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Event]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Error | Event | None:
    """Read one event with its deliveries

     The envelope exactly as it is delivered (`id`, `type`, `createdAt`, `data`), plus a separate
    `delivery` member: the state of the latest delivery to the configured callback address and every
    delivery with its attempts; and `forwards`: what `sandpiper listen` processes reported of forwarding
    the event to a receiver (each forward with its attempts and whether it was DELIVERED). Listener
    forwards are not deliveries and never change a delivery.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Event
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | Event]:
    """Read one event with its deliveries

     The envelope exactly as it is delivered (`id`, `type`, `createdAt`, `data`), plus a separate
    `delivery` member: the state of the latest delivery to the configured callback address and every
    delivery with its attempts; and `forwards`: what `sandpiper listen` processes reported of forwarding
    the event to a receiver (each forward with its attempts and whether it was DELIVERED). Listener
    forwards are not deliveries and never change a delivery.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Event]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Error | Event | None:
    """Read one event with its deliveries

     The envelope exactly as it is delivered (`id`, `type`, `createdAt`, `data`), plus a separate
    `delivery` member: the state of the latest delivery to the configured callback address and every
    delivery with its attempts; and `forwards`: what `sandpiper listen` processes reported of forwarding
    the event to a receiver (each forward with its attempts and whether it was DELIVERED). Listener
    forwards are not deliveries and never change a delivery.

    Args:
        id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Event
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
