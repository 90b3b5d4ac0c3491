from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.checkout_session import CheckoutSession
from ...models.create_checkout_session import CreateCheckoutSession
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: CreateCheckoutSession,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/checkout-sessions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CheckoutSession | Error | None:
    if response.status_code == 201:
        response_201 = CheckoutSession.from_dict(response.json())

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
) -> Response[CheckoutSession | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateCheckoutSession,
    idempotency_key: str,
) -> Response[CheckoutSession | Error]:
    """Open a customer amount-entry session

     The customer opens customerCheckout.url, chooses amount and currency and confirms the total.
    Confirmation does not create a payment and is not payment success. Only for merchants with customer
    amount-entry enabled. Requires customer amount-entry to be enabled for the merchant.

    Args:
        idempotency_key (str):
        body (CreateCheckoutSession): Reference and customer identity only: the customer chooses
            amount and currency on the hosted page. Amount, currency, FX rate, markup and commission
            members are forbidden (400 VALIDATION_ERROR naming the member); merchant-supplied pricing
            parameters are not accepted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckoutSession | Error]
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
    body: CreateCheckoutSession,
    idempotency_key: str,
) -> CheckoutSession | Error | None:
    """Open a customer amount-entry session

     The customer opens customerCheckout.url, chooses amount and currency and confirms the total.
    Confirmation does not create a payment and is not payment success. Only for merchants with customer
    amount-entry enabled. Requires customer amount-entry to be enabled for the merchant.

    Args:
        idempotency_key (str):
        body (CreateCheckoutSession): Reference and customer identity only: the customer chooses
            amount and currency on the hosted page. Amount, currency, FX rate, markup and commission
            members are forbidden (400 VALIDATION_ERROR naming the member); merchant-supplied pricing
            parameters are not accepted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckoutSession | Error
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateCheckoutSession,
    idempotency_key: str,
) -> Response[CheckoutSession | Error]:
    """Open a customer amount-entry session

     The customer opens customerCheckout.url, chooses amount and currency and confirms the total.
    Confirmation does not create a payment and is not payment success. Only for merchants with customer
    amount-entry enabled. Requires customer amount-entry to be enabled for the merchant.

    Args:
        idempotency_key (str):
        body (CreateCheckoutSession): Reference and customer identity only: the customer chooses
            amount and currency on the hosted page. Amount, currency, FX rate, markup and commission
            members are forbidden (400 VALIDATION_ERROR naming the member); merchant-supplied pricing
            parameters are not accepted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CheckoutSession | Error]
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
    body: CreateCheckoutSession,
    idempotency_key: str,
) -> CheckoutSession | Error | None:
    """Open a customer amount-entry session

     The customer opens customerCheckout.url, chooses amount and currency and confirms the total.
    Confirmation does not create a payment and is not payment success. Only for merchants with customer
    amount-entry enabled. Requires customer amount-entry to be enabled for the merchant.

    Args:
        idempotency_key (str):
        body (CreateCheckoutSession): Reference and customer identity only: the customer chooses
            amount and currency on the hosted page. Amount, currency, FX rate, markup and commission
            members are forbidden (400 VALIDATION_ERROR naming the member); merchant-supplied pricing
            parameters are not accepted.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CheckoutSession | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
