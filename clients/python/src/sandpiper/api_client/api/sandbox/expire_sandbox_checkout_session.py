from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.checkout_session import CheckoutSession
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    id: UUID,
    *,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sandbox/checkout-sessions/{id}/expire".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CheckoutSession | Error | None:
    if response.status_code == 200:
        response_200 = CheckoutSession.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

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
) -> Response[CheckoutSession | Error]:
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
    idempotency_key: str,
) -> Response[CheckoutSession | Error]:
    """Test helper: expire a checkout session now

     Ends the session's acceptance period now (customerCheckout.expiresAt becomes now) and expires it
    with the expiry sweep's own transition: AWAITING_AMOUNT, QUOTED or AWAITING_VERIFICATION -> EXPIRED.
    A session already EXPIRED is answered as it is. No event (sessions send no callbacks). Send no body.

    Args:
        id (UUID):
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckoutSession | Error]
    """

    kwargs = _get_kwargs(
        id=id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str,
) -> CheckoutSession | Error | None:
    """Test helper: expire a checkout session now

     Ends the session's acceptance period now (customerCheckout.expiresAt becomes now) and expires it
    with the expiry sweep's own transition: AWAITING_AMOUNT, QUOTED or AWAITING_VERIFICATION -> EXPIRED.
    A session already EXPIRED is answered as it is. No event (sessions send no callbacks). Send no body.

    Args:
        id (UUID):
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckoutSession | Error
    """

    return sync_detailed(
        id=id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str,
) -> Response[CheckoutSession | Error]:
    """Test helper: expire a checkout session now

     Ends the session's acceptance period now (customerCheckout.expiresAt becomes now) and expires it
    with the expiry sweep's own transition: AWAITING_AMOUNT, QUOTED or AWAITING_VERIFICATION -> EXPIRED.
    A session already EXPIRED is answered as it is. No event (sessions send no callbacks). Send no body.

    Args:
        id (UUID):
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckoutSession | Error]
    """

    kwargs = _get_kwargs(
        id=id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str,
) -> CheckoutSession | Error | None:
    """Test helper: expire a checkout session now

     Ends the session's acceptance period now (customerCheckout.expiresAt becomes now) and expires it
    with the expiry sweep's own transition: AWAITING_AMOUNT, QUOTED or AWAITING_VERIFICATION -> EXPIRED.
    A session already EXPIRED is answered as it is. No event (sessions send no callbacks). Send no body.

    Args:
        id (UUID):
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckoutSession | Error
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
