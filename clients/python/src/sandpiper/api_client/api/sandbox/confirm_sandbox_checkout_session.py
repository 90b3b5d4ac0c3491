from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.quoted_checkout_session import QuotedCheckoutSession
from ...models.session_amount import SessionAmount
from ...types import Response


def _get_kwargs(
    id: UUID,
    *,
    body: SessionAmount,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sandbox/checkout-sessions/{id}/confirm".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | QuotedCheckoutSession | None:
    if response.status_code == 200:
        response_200 = QuotedCheckoutSession.from_dict(response.json())

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
) -> Response[Error | QuotedCheckoutSession]:
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
    body: SessionAmount,
    idempotency_key: str,
) -> Response[Error | QuotedCheckoutSession]:
    r"""Test helper: the customer confirms the total

     What the customer does pressing \"Confirm total\" on the page: the body repeats the quoted amount
    and currency, and the session moves QUOTED -> AWAITING_VERIFICATION, the last state of the flow
    (verification is not configured). Repeating the confirmation answers the session unchanged. A total
    other than the quoted one, or a quote of an earlier Dubai day, is 409 INVALID_STATE. Creates no
    payment, store handoff or event.

    Args:
        id (UUID):
        idempotency_key (str):
        body (SessionAmount): The amount (decimal text, up to 10 integer digits and 2 decimals)
            and currency the customer enters on the checkout page; confirm repeats the quoted pair, as
            the page does.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | QuotedCheckoutSession]
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
    body: SessionAmount,
    idempotency_key: str,
) -> Error | QuotedCheckoutSession | None:
    r"""Test helper: the customer confirms the total

     What the customer does pressing \"Confirm total\" on the page: the body repeats the quoted amount
    and currency, and the session moves QUOTED -> AWAITING_VERIFICATION, the last state of the flow
    (verification is not configured). Repeating the confirmation answers the session unchanged. A total
    other than the quoted one, or a quote of an earlier Dubai day, is 409 INVALID_STATE. Creates no
    payment, store handoff or event.

    Args:
        id (UUID):
        idempotency_key (str):
        body (SessionAmount): The amount (decimal text, up to 10 integer digits and 2 decimals)
            and currency the customer enters on the checkout page; confirm repeats the quoted pair, as
            the page does.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | QuotedCheckoutSession
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
    body: SessionAmount,
    idempotency_key: str,
) -> Response[Error | QuotedCheckoutSession]:
    r"""Test helper: the customer confirms the total

     What the customer does pressing \"Confirm total\" on the page: the body repeats the quoted amount
    and currency, and the session moves QUOTED -> AWAITING_VERIFICATION, the last state of the flow
    (verification is not configured). Repeating the confirmation answers the session unchanged. A total
    other than the quoted one, or a quote of an earlier Dubai day, is 409 INVALID_STATE. Creates no
    payment, store handoff or event.

    Args:
        id (UUID):
        idempotency_key (str):
        body (SessionAmount): The amount (decimal text, up to 10 integer digits and 2 decimals)
            and currency the customer enters on the checkout page; confirm repeats the quoted pair, as
            the page does.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | QuotedCheckoutSession]
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
    body: SessionAmount,
    idempotency_key: str,
) -> Error | QuotedCheckoutSession | None:
    r"""Test helper: the customer confirms the total

     What the customer does pressing \"Confirm total\" on the page: the body repeats the quoted amount
    and currency, and the session moves QUOTED -> AWAITING_VERIFICATION, the last state of the flow
    (verification is not configured). Repeating the confirmation answers the session unchanged. A total
    other than the quoted one, or a quote of an earlier Dubai day, is 409 INVALID_STATE. Creates no
    payment, store handoff or event.

    Args:
        id (UUID):
        idempotency_key (str):
        body (SessionAmount): The amount (decimal text, up to 10 integer digits and 2 decimals)
            and currency the customer enters on the checkout page; confirm repeats the quoted pair, as
            the page does.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | QuotedCheckoutSession
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
