from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.scenario_rule_list import ScenarioRuleList
from ...types import Response


def _get_kwargs(
    *,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sandbox/scenario-rules/standard",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ScenarioRuleList | None:
    if response.status_code == 200:
        response_200 = ScenarioRuleList.from_dict(response.json())

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
) -> Response[Error | ScenarioRuleList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str,
) -> Response[Error | ScenarioRuleList]:
    r"""Scenario rules: add the standard set

     Adds, enabled, each rule of the standard set (docs/guides/test-every-path.md \"Testing your
    integration\") the merchant has no rule of that name for: amount 13.13 fails, 14.14 expires, 15.15
    succeeds; reference prefix fail- fails, ok- succeeds, slow- succeeds after 30 s. Audited.

    Args:
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ScenarioRuleList]
    """

    kwargs = _get_kwargs(
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str,
) -> Error | ScenarioRuleList | None:
    r"""Scenario rules: add the standard set

     Adds, enabled, each rule of the standard set (docs/guides/test-every-path.md \"Testing your
    integration\") the merchant has no rule of that name for: amount 13.13 fails, 14.14 expires, 15.15
    succeeds; reference prefix fail- fails, ok- succeeds, slow- succeeds after 30 s. Audited.

    Args:
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ScenarioRuleList
    """

    return sync_detailed(
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str,
) -> Response[Error | ScenarioRuleList]:
    r"""Scenario rules: add the standard set

     Adds, enabled, each rule of the standard set (docs/guides/test-every-path.md \"Testing your
    integration\") the merchant has no rule of that name for: amount 13.13 fails, 14.14 expires, 15.15
    succeeds; reference prefix fail- fails, ok- succeeds, slow- succeeds after 30 s. Audited.

    Args:
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ScenarioRuleList]
    """

    kwargs = _get_kwargs(
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str,
) -> Error | ScenarioRuleList | None:
    r"""Scenario rules: add the standard set

     Adds, enabled, each rule of the standard set (docs/guides/test-every-path.md \"Testing your
    integration\") the merchant has no rule of that name for: amount 13.13 fails, 14.14 expires, 15.15
    succeeds; reference prefix fail- fails, ok- succeeds, slow- succeeds after 30 s. Audited.

    Args:
        idempotency_key (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ScenarioRuleList
    """

    return (
        await asyncio_detailed(
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
