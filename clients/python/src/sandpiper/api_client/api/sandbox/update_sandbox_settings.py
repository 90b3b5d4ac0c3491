from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.sandbox_settings import SandboxSettings
from ...models.update_sandbox_settings import UpdateSandboxSettings
from ...types import Response


def _get_kwargs(
    *,
    body: UpdateSandboxSettings,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/sandbox/settings",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SandboxSettings | None:
    if response.status_code == 200:
        response_200 = SandboxSettings.from_dict(response.json())

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
) -> Response[Error | SandboxSettings]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: UpdateSandboxSettings,
) -> Response[Error | SandboxSettings]:
    r"""Test helper: switch fast retries

     `{\"fastRetries\": true}` runs the callback schedule's 8 attempts with every wait divided by 60 (0.5
    s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s); false restores the normal schedule (30 s to 1 h). Applies from
    the next failed attempt. Setting the value it already has changes nothing; a change is written to
    the audit log. PUT sets the whole value, so no Idempotency-Key is needed.

    Args:
        body (UpdateSandboxSettings): The merchant's sandbox settings to set.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SandboxSettings]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: UpdateSandboxSettings,
) -> Error | SandboxSettings | None:
    r"""Test helper: switch fast retries

     `{\"fastRetries\": true}` runs the callback schedule's 8 attempts with every wait divided by 60 (0.5
    s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s); false restores the normal schedule (30 s to 1 h). Applies from
    the next failed attempt. Setting the value it already has changes nothing; a change is written to
    the audit log. PUT sets the whole value, so no Idempotency-Key is needed.

    Args:
        body (UpdateSandboxSettings): The merchant's sandbox settings to set.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SandboxSettings
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: UpdateSandboxSettings,
) -> Response[Error | SandboxSettings]:
    r"""Test helper: switch fast retries

     `{\"fastRetries\": true}` runs the callback schedule's 8 attempts with every wait divided by 60 (0.5
    s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s); false restores the normal schedule (30 s to 1 h). Applies from
    the next failed attempt. Setting the value it already has changes nothing; a change is written to
    the audit log. PUT sets the whole value, so no Idempotency-Key is needed.

    Args:
        body (UpdateSandboxSettings): The merchant's sandbox settings to set.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SandboxSettings]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: UpdateSandboxSettings,
) -> Error | SandboxSettings | None:
    r"""Test helper: switch fast retries

     `{\"fastRetries\": true}` runs the callback schedule's 8 attempts with every wait divided by 60 (0.5
    s, 2 s, 5 s, 10 s, 20 s, 40 s, 60 s); false restores the normal schedule (30 s to 1 h). Applies from
    the next failed attempt. Setting the value it already has changes nothing; a change is written to
    the audit log. PUT sets the whole value, so no Idempotency-Key is needed.

    Args:
        body (UpdateSandboxSettings): The merchant's sandbox settings to set.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SandboxSettings
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
