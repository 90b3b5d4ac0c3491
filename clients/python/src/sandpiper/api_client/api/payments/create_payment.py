from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_payment import CreatePayment
from ...models.error import Error
from ...models.payment import Payment
from ...types import Response


def _get_kwargs(
    *,
    body: CreatePayment,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/payments",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Payment | None:
    if response.status_code == 201:
        response_201 = Payment.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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
) -> Response[Error | Payment]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreatePayment,
    idempotency_key: str,
) -> Response[Error | Payment]:
    """Create a sandbox deposit or withdrawal

     A deposit starts PENDING, a withdrawal PENDING_APPROVAL (approved by a console user other than the
    key's owner). Merchant pricing and limits apply; the terms are stored as an immutable pricing
    snapshot. A replay with the same Idempotency-Key and body answers the first response (201) with
    Idempotency-Replayed: true.

    Args:
        idempotency_key (str):
        body (CreatePayment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Payment]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreatePayment,
    idempotency_key: str,
) -> Error | Payment | None:
    """Create a sandbox deposit or withdrawal

     A deposit starts PENDING, a withdrawal PENDING_APPROVAL (approved by a console user other than the
    key's owner). Merchant pricing and limits apply; the terms are stored as an immutable pricing
    snapshot. A replay with the same Idempotency-Key and body answers the first response (201) with
    Idempotency-Replayed: true.

    Args:
        idempotency_key (str):
        body (CreatePayment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Payment
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreatePayment,
    idempotency_key: str,
) -> Response[Error | Payment]:
    """Create a sandbox deposit or withdrawal

     A deposit starts PENDING, a withdrawal PENDING_APPROVAL (approved by a console user other than the
    key's owner). Merchant pricing and limits apply; the terms are stored as an immutable pricing
    snapshot. A replay with the same Idempotency-Key and body answers the first response (201) with
    Idempotency-Replayed: true.

    Args:
        idempotency_key (str):
        body (CreatePayment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Payment]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreatePayment,
    idempotency_key: str,
) -> Error | Payment | None:
    """Create a sandbox deposit or withdrawal

     A deposit starts PENDING, a withdrawal PENDING_APPROVAL (approved by a console user other than the
    key's owner). Merchant pricing and limits apply; the terms are stored as an immutable pricing
    snapshot. A replay with the same Idempotency-Key and body answers the first response (201) with
    Idempotency-Replayed: true.

    Args:
        idempotency_key (str):
        body (CreatePayment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Payment
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
