from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_payments_currency import ListPaymentsCurrency
from ...models.list_payments_direction import ListPaymentsDirection
from ...models.list_payments_method import ListPaymentsMethod
from ...models.list_payments_status import ListPaymentsStatus
from ...models.payment_list import PaymentList
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    status: ListPaymentsStatus | Unset = UNSET,
    method: ListPaymentsMethod | Unset = UNSET,
    direction: ListPaymentsDirection | Unset = UNSET,
    currency: ListPaymentsCurrency | Unset = UNSET,
    search: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params["limit"] = limit

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_method: str | Unset = UNSET
    if not isinstance(method, Unset):
        json_method = method.value

    params["method"] = json_method

    json_direction: str | Unset = UNSET
    if not isinstance(direction, Unset):
        json_direction = direction.value

    params["direction"] = json_direction

    json_currency: str | Unset = UNSET
    if not isinstance(currency, Unset):
        json_currency = currency.value

    params["currency"] = json_currency

    params["search"] = search

    params["from"] = from_

    params["to"] = to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/payments",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PaymentList | None:
    if response.status_code == 200:
        response_200 = PaymentList.from_dict(response.json())

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
) -> Response[Error | PaymentList]:
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
    status: ListPaymentsStatus | Unset = UNSET,
    method: ListPaymentsMethod | Unset = UNSET,
    direction: ListPaymentsDirection | Unset = UNSET,
    currency: ListPaymentsCurrency | Unset = UNSET,
    search: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
) -> Response[Error | PaymentList]:
    """List the merchant's payments

     Newest first. `from` and `to` are Dubai (UTC+4) calendar days in YYYY-MM-DD, the end day inclusive.
    Items carry neither `checkout` nor `customer`.

    Args:
        page (str | Unset): page number, >= 1; default 1
        limit (str | Unset): page size, 1 to 100; default 20
        status (ListPaymentsStatus | Unset): only payments in this status
        method (ListPaymentsMethod | Unset): only payments of this method
        direction (ListPaymentsDirection | Unset): only deposits or only withdrawals
        currency (ListPaymentsCurrency | Unset): only payments in this currency
        search (str | Unset): part of the reference, case-insensitive
        from_ (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        to (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaymentList]
    """

    kwargs = _get_kwargs(
        page=page,
        limit=limit,
        status=status,
        method=method,
        direction=direction,
        currency=currency,
        search=search,
        from_=from_,
        to=to,
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
    status: ListPaymentsStatus | Unset = UNSET,
    method: ListPaymentsMethod | Unset = UNSET,
    direction: ListPaymentsDirection | Unset = UNSET,
    currency: ListPaymentsCurrency | Unset = UNSET,
    search: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
) -> Error | PaymentList | None:
    """List the merchant's payments

     Newest first. `from` and `to` are Dubai (UTC+4) calendar days in YYYY-MM-DD, the end day inclusive.
    Items carry neither `checkout` nor `customer`.

    Args:
        page (str | Unset): page number, >= 1; default 1
        limit (str | Unset): page size, 1 to 100; default 20
        status (ListPaymentsStatus | Unset): only payments in this status
        method (ListPaymentsMethod | Unset): only payments of this method
        direction (ListPaymentsDirection | Unset): only deposits or only withdrawals
        currency (ListPaymentsCurrency | Unset): only payments in this currency
        search (str | Unset): part of the reference, case-insensitive
        from_ (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        to (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaymentList
    """

    return sync_detailed(
        client=client,
        page=page,
        limit=limit,
        status=status,
        method=method,
        direction=direction,
        currency=currency,
        search=search,
        from_=from_,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    status: ListPaymentsStatus | Unset = UNSET,
    method: ListPaymentsMethod | Unset = UNSET,
    direction: ListPaymentsDirection | Unset = UNSET,
    currency: ListPaymentsCurrency | Unset = UNSET,
    search: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
) -> Response[Error | PaymentList]:
    """List the merchant's payments

     Newest first. `from` and `to` are Dubai (UTC+4) calendar days in YYYY-MM-DD, the end day inclusive.
    Items carry neither `checkout` nor `customer`.

    Args:
        page (str | Unset): page number, >= 1; default 1
        limit (str | Unset): page size, 1 to 100; default 20
        status (ListPaymentsStatus | Unset): only payments in this status
        method (ListPaymentsMethod | Unset): only payments of this method
        direction (ListPaymentsDirection | Unset): only deposits or only withdrawals
        currency (ListPaymentsCurrency | Unset): only payments in this currency
        search (str | Unset): part of the reference, case-insensitive
        from_ (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        to (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PaymentList]
    """

    kwargs = _get_kwargs(
        page=page,
        limit=limit,
        status=status,
        method=method,
        direction=direction,
        currency=currency,
        search=search,
        from_=from_,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    page: str | Unset = UNSET,
    limit: str | Unset = UNSET,
    status: ListPaymentsStatus | Unset = UNSET,
    method: ListPaymentsMethod | Unset = UNSET,
    direction: ListPaymentsDirection | Unset = UNSET,
    currency: ListPaymentsCurrency | Unset = UNSET,
    search: str | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
) -> Error | PaymentList | None:
    """List the merchant's payments

     Newest first. `from` and `to` are Dubai (UTC+4) calendar days in YYYY-MM-DD, the end day inclusive.
    Items carry neither `checkout` nor `customer`.

    Args:
        page (str | Unset): page number, >= 1; default 1
        limit (str | Unset): page size, 1 to 100; default 20
        status (ListPaymentsStatus | Unset): only payments in this status
        method (ListPaymentsMethod | Unset): only payments of this method
        direction (ListPaymentsDirection | Unset): only deposits or only withdrawals
        currency (ListPaymentsCurrency | Unset): only payments in this currency
        search (str | Unset): part of the reference, case-insensitive
        from_ (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive
        to (str | Unset): Dubai (UTC+4) calendar day, YYYY-MM-DD; `to` is inclusive

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PaymentList
    """

    return (
        await asyncio_detailed(
            client=client,
            page=page,
            limit=limit,
            status=status,
            method=method,
            direction=direction,
            currency=currency,
            search=search,
            from_=from_,
            to=to,
        )
    ).parsed
