from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.complete_sandbox_payment import CompleteSandboxPayment
from ...models.error import Error
from ...models.payment import Payment
from ...types import Response


def _get_kwargs(
    id: UUID,
    *,
    body: CompleteSandboxPayment,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sandbox/payments/{id}/complete".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Payment | None:
    if response.status_code == 200:
        response_200 = Payment.from_dict(response.json())

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
) -> Response[Error | Payment]:
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
    body: CompleteSandboxPayment,
    idempotency_key: str,
) -> Response[Error | Payment]:
    r"""Conclude a pending test payment

     Moves a PENDING payment (a withdrawal must be approved; not a store checkout; before expiresAt) to
    SUCCEEDED (ledger entry, payment.succeeded event) or FAILED (payment.failed event). With FAILED, an
    optional failureCode (docs/api.md \"Failure codes\") is shown on the payment, its lists and its
    payment.failed event as `failure: {code, message}`; a failureCode with SUCCEEDED, or an unknown one,
    answers 400 VALIDATION_ERROR and changes nothing. Repeating the outcome a payment already has
    returns it unchanged (409 INVALID_STATE when the repeat names another failure code). No money moves.

    Args:
        id (UUID):
        idempotency_key (str):
        body (CompleteSandboxPayment): The sandbox result to record, and with FAILED optionally a
            failure code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Payment]
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
    body: CompleteSandboxPayment,
    idempotency_key: str,
) -> Error | Payment | None:
    r"""Conclude a pending test payment

     Moves a PENDING payment (a withdrawal must be approved; not a store checkout; before expiresAt) to
    SUCCEEDED (ledger entry, payment.succeeded event) or FAILED (payment.failed event). With FAILED, an
    optional failureCode (docs/api.md \"Failure codes\") is shown on the payment, its lists and its
    payment.failed event as `failure: {code, message}`; a failureCode with SUCCEEDED, or an unknown one,
    answers 400 VALIDATION_ERROR and changes nothing. Repeating the outcome a payment already has
    returns it unchanged (409 INVALID_STATE when the repeat names another failure code). No money moves.

    Args:
        id (UUID):
        idempotency_key (str):
        body (CompleteSandboxPayment): The sandbox result to record, and with FAILED optionally a
            failure code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Payment
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
    body: CompleteSandboxPayment,
    idempotency_key: str,
) -> Response[Error | Payment]:
    r"""Conclude a pending test payment

     Moves a PENDING payment (a withdrawal must be approved; not a store checkout; before expiresAt) to
    SUCCEEDED (ledger entry, payment.succeeded event) or FAILED (payment.failed event). With FAILED, an
    optional failureCode (docs/api.md \"Failure codes\") is shown on the payment, its lists and its
    payment.failed event as `failure: {code, message}`; a failureCode with SUCCEEDED, or an unknown one,
    answers 400 VALIDATION_ERROR and changes nothing. Repeating the outcome a payment already has
    returns it unchanged (409 INVALID_STATE when the repeat names another failure code). No money moves.

    Args:
        id (UUID):
        idempotency_key (str):
        body (CompleteSandboxPayment): The sandbox result to record, and with FAILED optionally a
            failure code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Payment]
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
    body: CompleteSandboxPayment,
    idempotency_key: str,
) -> Error | Payment | None:
    r"""Conclude a pending test payment

     Moves a PENDING payment (a withdrawal must be approved; not a store checkout; before expiresAt) to
    SUCCEEDED (ledger entry, payment.succeeded event) or FAILED (payment.failed event). With FAILED, an
    optional failureCode (docs/api.md \"Failure codes\") is shown on the payment, its lists and its
    payment.failed event as `failure: {code, message}`; a failureCode with SUCCEEDED, or an unknown one,
    answers 400 VALIDATION_ERROR and changes nothing. Repeating the outcome a payment already has
    returns it unchanged (409 INVALID_STATE when the repeat names another failure code). No money moves.

    Args:
        id (UUID):
        idempotency_key (str):
        body (CompleteSandboxPayment): The sandbox result to record, and with FAILED optionally a
            failure code.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Payment
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
