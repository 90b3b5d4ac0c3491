from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.complete_payment import CompletePayment
from ...models.error import Error
from ...models.store_payment import StorePayment
from ...types import Response


def _get_kwargs(
    id: UUID,
    *,
    body: CompletePayment,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sandbox/store-payments/{id}/confirm".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StorePayment | None:
    if response.status_code == 200:
        response_200 = StorePayment.from_dict(response.json())

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
) -> Response[Error | StorePayment]:
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
    body: CompletePayment,
    idempotency_key: str,
) -> Response[Error | StorePayment]:
    """Test helper: the store's test confirmation of a store payment

     What the store page's Pay (SUCCEEDED) and Decline (FAILED) buttons do, without a browser: checkout
    READY -> the outcome, and the payment follows (SUCCEEDED: ledger entry and payment.succeeded;
    FAILED: payment.failed). Only while checkout.state is READY: otherwise 409 INVALID_STATE naming the
    state and what to wait for (QUEUED: poll GET /v1/payments/{id} until READY). Repeating the outcome
    the checkout already has answers it unchanged.

    Args:
        id (UUID):
        idempotency_key (str):
        body (CompletePayment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StorePayment]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
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
    body: CompletePayment,
    idempotency_key: str,
) -> Error | StorePayment | None:
    """Test helper: the store's test confirmation of a store payment

     What the store page's Pay (SUCCEEDED) and Decline (FAILED) buttons do, without a browser: checkout
    READY -> the outcome, and the payment follows (SUCCEEDED: ledger entry and payment.succeeded;
    FAILED: payment.failed). Only while checkout.state is READY: otherwise 409 INVALID_STATE naming the
    state and what to wait for (QUEUED: poll GET /v1/payments/{id} until READY). Repeating the outcome
    the checkout already has answers it unchanged.

    Args:
        id (UUID):
        idempotency_key (str):
        body (CompletePayment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StorePayment
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: CompletePayment,
    idempotency_key: str,
) -> Response[Error | StorePayment]:
    """Test helper: the store's test confirmation of a store payment

     What the store page's Pay (SUCCEEDED) and Decline (FAILED) buttons do, without a browser: checkout
    READY -> the outcome, and the payment follows (SUCCEEDED: ledger entry and payment.succeeded;
    FAILED: payment.failed). Only while checkout.state is READY: otherwise 409 INVALID_STATE naming the
    state and what to wait for (QUEUED: poll GET /v1/payments/{id} until READY). Repeating the outcome
    the checkout already has answers it unchanged.

    Args:
        id (UUID):
        idempotency_key (str):
        body (CompletePayment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StorePayment]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    body: CompletePayment,
    idempotency_key: str,
) -> Error | StorePayment | None:
    """Test helper: the store's test confirmation of a store payment

     What the store page's Pay (SUCCEEDED) and Decline (FAILED) buttons do, without a browser: checkout
    READY -> the outcome, and the payment follows (SUCCEEDED: ledger entry and payment.succeeded;
    FAILED: payment.failed). Only while checkout.state is READY: otherwise 409 INVALID_STATE naming the
    state and what to wait for (QUEUED: poll GET /v1/payments/{id} until READY). Repeating the outcome
    the checkout already has answers it unchanged.

    Args:
        id (UUID):
        idempotency_key (str):
        body (CompletePayment):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StorePayment
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
