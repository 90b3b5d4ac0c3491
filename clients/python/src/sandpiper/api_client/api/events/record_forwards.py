from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.forwards_recorded import ForwardsRecorded
from ...models.record_forwards import RecordForwards
from ...types import Response


def _get_kwargs(
    *,
    body: RecordForwards,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/events/forwards",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ForwardsRecorded | None:
    if response.status_code == 200:
        response_200 = ForwardsRecorded.from_dict(response.json())

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
) -> Response[Error | ForwardsRecorded]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RecordForwards,
) -> Response[Error | ForwardsRecorded]:
    """Record listener forward attempts (sandpiper listen)

     What `sandpiper listen` sends, in batches, about each attempt to bring an event to the developer's
    receiver: status, latency, error, the timestamp and signature it sent. The attempts show on `GET
    /v1/events/{id}` (`forwards`), on the console's event pages and in the signature debugger, and an
    event a listener delivered counts as received. No Idempotency-Key: an attempt already recorded (the
    same forwardId and attempt) changes nothing. Events that are not the key's merchant's are listed
    back in `unknownEvents` and not recorded. Only a listener session records: the batch carries the
    `forwardToken` its stream's `ready` message gave (a key with the `sandbox:simulate` scope gets one;
    a read-only key's listener forwards but records nothing), and the token is taken for 70 minutes
    after its stream opened. A token of another key or an expired one answers 400 and nothing of the
    batch is recorded. An attempt whose `startedAt` lies before its event was recorded or its stream
    opened, or after now (a minute of clock skew allowed), is refused alone: the others are recorded and
    `refused` lists it with the reason. Every bound is real time (the event's recording, not its
    `createdAt`), so a moved sandbox clock changes nothing here.

    Args:
        body (RecordForwards): Forward attempts of a `sandpiper listen` process, recorded for the
            merchant's events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ForwardsRecorded]
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
    body: RecordForwards,
) -> Error | ForwardsRecorded | None:
    """Record listener forward attempts (sandpiper listen)

     What `sandpiper listen` sends, in batches, about each attempt to bring an event to the developer's
    receiver: status, latency, error, the timestamp and signature it sent. The attempts show on `GET
    /v1/events/{id}` (`forwards`), on the console's event pages and in the signature debugger, and an
    event a listener delivered counts as received. No Idempotency-Key: an attempt already recorded (the
    same forwardId and attempt) changes nothing. Events that are not the key's merchant's are listed
    back in `unknownEvents` and not recorded. Only a listener session records: the batch carries the
    `forwardToken` its stream's `ready` message gave (a key with the `sandbox:simulate` scope gets one;
    a read-only key's listener forwards but records nothing), and the token is taken for 70 minutes
    after its stream opened. A token of another key or an expired one answers 400 and nothing of the
    batch is recorded. An attempt whose `startedAt` lies before its event was recorded or its stream
    opened, or after now (a minute of clock skew allowed), is refused alone: the others are recorded and
    `refused` lists it with the reason. Every bound is real time (the event's recording, not its
    `createdAt`), so a moved sandbox clock changes nothing here.

    Args:
        body (RecordForwards): Forward attempts of a `sandpiper listen` process, recorded for the
            merchant's events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ForwardsRecorded
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RecordForwards,
) -> Response[Error | ForwardsRecorded]:
    """Record listener forward attempts (sandpiper listen)

     What `sandpiper listen` sends, in batches, about each attempt to bring an event to the developer's
    receiver: status, latency, error, the timestamp and signature it sent. The attempts show on `GET
    /v1/events/{id}` (`forwards`), on the console's event pages and in the signature debugger, and an
    event a listener delivered counts as received. No Idempotency-Key: an attempt already recorded (the
    same forwardId and attempt) changes nothing. Events that are not the key's merchant's are listed
    back in `unknownEvents` and not recorded. Only a listener session records: the batch carries the
    `forwardToken` its stream's `ready` message gave (a key with the `sandbox:simulate` scope gets one;
    a read-only key's listener forwards but records nothing), and the token is taken for 70 minutes
    after its stream opened. A token of another key or an expired one answers 400 and nothing of the
    batch is recorded. An attempt whose `startedAt` lies before its event was recorded or its stream
    opened, or after now (a minute of clock skew allowed), is refused alone: the others are recorded and
    `refused` lists it with the reason. Every bound is real time (the event's recording, not its
    `createdAt`), so a moved sandbox clock changes nothing here.

    Args:
        body (RecordForwards): Forward attempts of a `sandpiper listen` process, recorded for the
            merchant's events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ForwardsRecorded]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RecordForwards,
) -> Error | ForwardsRecorded | None:
    """Record listener forward attempts (sandpiper listen)

     What `sandpiper listen` sends, in batches, about each attempt to bring an event to the developer's
    receiver: status, latency, error, the timestamp and signature it sent. The attempts show on `GET
    /v1/events/{id}` (`forwards`), on the console's event pages and in the signature debugger, and an
    event a listener delivered counts as received. No Idempotency-Key: an attempt already recorded (the
    same forwardId and attempt) changes nothing. Events that are not the key's merchant's are listed
    back in `unknownEvents` and not recorded. Only a listener session records: the batch carries the
    `forwardToken` its stream's `ready` message gave (a key with the `sandbox:simulate` scope gets one;
    a read-only key's listener forwards but records nothing), and the token is taken for 70 minutes
    after its stream opened. A token of another key or an expired one answers 400 and nothing of the
    batch is recorded. An attempt whose `startedAt` lies before its event was recorded or its stream
    opened, or after now (a minute of clock skew allowed), is refused alone: the others are recorded and
    `refused` lists it with the reason. Every bound is real time (the event's recording, not its
    `createdAt`), so a moved sandbox clock changes nothing here.

    Args:
        body (RecordForwards): Forward attempts of a `sandpiper listen` process, recorded for the
            merchant's events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ForwardsRecorded
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
