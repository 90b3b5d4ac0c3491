"""Receiver-side verification of a Sandpiper callback.

Implements the signing rule and the first of the rules for your receiver in docs/guides/receive-and-verify-callbacks.md
(docs/callbacks.md has the full reference), with the same checks, in the same order, as the Node.js ``verifyCallback``
(clients/cli/src/verify.ts). Only the standard library is used: copy this file into your own server if you like.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from datetime import datetime
from typing import Any, Dict, Mapping, Optional, Union

__all__ = ["InvalidCallback", "verify_callback"]

_TIMESTAMP = re.compile(r"^[0-9]{10}$")
_SIGNATURE = re.compile(r"^[0-9a-f]{64}$")
_SERVICE_NAME = re.compile(r"^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$")


class InvalidCallback(Exception):
    """A callback that must not be trusted (answer it 400 and store nothing).

    ``reason`` is one of ``MISSING_HEADER``, ``BAD_TIMESTAMP``, ``TIMESTAMP_OUT_OF_TOLERANCE``, ``BAD_SIGNATURE``,
    ``MALFORMED_BODY``, ``EVENT_ID_MISMATCH`` (the reasons of the Node.js ``verifyCallback``).
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason


def _header(headers: Any, name: str) -> Optional[str]:
    """The header ``name`` (case-insensitive) of a mapping, an ``http.server``/``email.message.Message`` or an
    ``httpx.Headers``; several values are joined with ", " (and then fail the format checks)."""
    get_all = getattr(headers, "get_all", None) or getattr(headers, "get_list", None)
    if callable(get_all):
        values = get_all(name) or []
        return ", ".join(str(v) for v in values) if values else None
    wanted = name.lower()
    for key, value in headers.items():
        if str(key).lower() != wanted or value is None:
            continue
        if isinstance(value, (list, tuple)):
            return ", ".join(str(v) for v in value)
        return value.decode("latin-1") if isinstance(value, bytes) else str(value)
    return None


def verify_callback(
    body: bytes,
    headers: Union[Mapping[str, Any], Any],
    secret: str,
    *,
    tolerance_seconds: float = 300,
    now: Union[None, float, datetime] = None,
    service_name: str = "Service",
) -> Dict[str, Any]:
    """Verifies one received callback and returns its event, before anything in it is trusted.

    docs/guides/receive-and-verify-callbacks.md, receiver rule 1, checked in this order:

    1. the headers ``X-<Name>-Event-Id``, ``X-<Name>-Timestamp`` and ``X-<Name>-Signature`` are present and not empty
       (names matched case-insensitively), else ``MISSING_HEADER``;
    2. the timestamp is exactly 10 ASCII digits (Unix seconds), else ``BAD_TIMESTAMP``;
    3. the signature is 64 lowercase hex characters, else ``BAD_SIGNATURE``;
    4. the timestamp is at most ``tolerance_seconds`` (default 300) from ``now`` in either direction, in whole
       seconds (300 passes, 301 fails), else ``TIMESTAMP_OUT_OF_TOLERANCE``;
    5. HMAC-SHA256 keyed with the whole secret string (``whsec_`` included, as UTF-8 bytes; it is not base64-decoded)
       of ``timestamp + "." + body`` equals the signature, compared in constant time, else ``BAD_SIGNATURE``;
    6. the body is a UTF-8 JSON object with a string ``id``, else ``MALFORMED_BODY``;
    7. the event id header equals the body's ``id``, else ``EVENT_ID_MISMATCH``.

    Rules 2 to 4 of the guide (compare with your own order, store the event id uniquely, answer 2xx) stay yours.

    :param body: the request body exactly as received, as bytes (read it before any JSON parsing; never re-serialise).
    :param headers: the request's headers: a dict, ``http.server.BaseHTTPRequestHandler.headers``, ``httpx.Headers``,
        or any mapping of names to values.
    :param secret: the ``whsec_...`` callback secret of the merchant (``sandpiper_merchant.callback_secret``).
    :param tolerance_seconds: the accepted distance of the timestamp from ``now``, in seconds (default 300).
    :param now: the receiver's clock, Unix seconds or an aware ``datetime``; default ``time.time()``.
    :param service_name: ``<Name>`` of the header names, the service's ``SERVICE_NAME`` (default ``Service``).
    :returns: the event envelope as a dict (``id``, ``type``, ``createdAt``, ``data``).
    :raises InvalidCallback: for a forged, altered, stale or malformed callback; its ``reason`` says which check failed.
    :raises TypeError: for an empty secret, a body that is not bytes, or a ``service_name`` that is not letters and
        digits joined by single hyphens.
    :raises ValueError: for a negative tolerance.
    """
    if not isinstance(secret, str) or secret == "":
        raise TypeError("secret must be a non-empty string (the whsec_... callback secret)")
    if isinstance(body, (bytearray, memoryview)):
        body = bytes(body)
    if not isinstance(body, bytes):
        raise TypeError("body must be the raw request body as bytes, exactly as received")
    if tolerance_seconds < 0:
        raise ValueError("tolerance_seconds must be 0 or more")
    if not _SERVICE_NAME.match(service_name):
        raise TypeError("service_name must be letters and digits, optionally joined by single hyphens")
    now_seconds = time.time() if now is None else now.timestamp() if isinstance(now, datetime) else float(now)

    event_id = _header(headers, f"X-{service_name}-Event-Id")
    timestamp = _header(headers, f"X-{service_name}-Timestamp")
    signature = _header(headers, f"X-{service_name}-Signature")
    if not event_id or not timestamp or not signature:
        raise InvalidCallback("MISSING_HEADER", f"the X-{service_name}-Event-Id, -Timestamp and -Signature headers are required")
    if not _TIMESTAMP.match(timestamp):
        raise InvalidCallback("BAD_TIMESTAMP", "the timestamp header is not 10 digits of Unix seconds")
    if not _SIGNATURE.match(signature):
        raise InvalidCallback("BAD_SIGNATURE", "the signature header is not 64 lowercase hex characters")
    if abs(int(now_seconds // 1) - int(timestamp)) > tolerance_seconds:
        raise InvalidCallback("TIMESTAMP_OUT_OF_TOLERANCE", f"the timestamp is more than {tolerance_seconds:g} s from this clock")

    expected = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        raise InvalidCallback("BAD_SIGNATURE", "the signature does not match this secret and body")

    try:
        event = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise InvalidCallback("MALFORMED_BODY", "the body is not UTF-8 JSON") from None
    if not isinstance(event, dict) or not isinstance(event.get("id"), str):
        raise InvalidCallback("MALFORMED_BODY", "the body is not an event object with a string id")
    if event["id"] != event_id:
        raise InvalidCallback("EVENT_ID_MISMATCH", "the event id header differs from the body's id")
    return event
