"""Sandpiper in your own Python test suite (docs/guides/test-in-your-own-suite.md "Python").

- :class:`Sandbox` runs the ``sandpiper-sandbox`` command of the ``@sandpiper/sandbox`` npm package and makes
  merchants in it; :class:`Merchant` is one of them, with an ``httpx.Client`` and the typed client for its key, and
  its sandbox clock.
- :mod:`sandpiper.api_client` is the typed client, generated from the OpenAPI document by openapi-python-client:
  ``AuthenticatedClient``, a module per operation (``sandpiper.api_client.api.payments.create_payment``) and a model
  per schema (``sandpiper.api_client.models``).
- :func:`verify_callback` verifies a received callback (docs/guides/receive-and-verify-callbacks.md).
- The pytest plugin (``sandpiper.pytest_plugin``, loaded by pytest through the ``pytest11`` entry point) gives the
  fixtures ``sandpiper`` and ``sandpiper_merchant``.
"""

from .sandbox import Merchant, Sandbox, SandboxError, sandbox_command
from .verify import InvalidCallback, verify_callback

__all__ = ["InvalidCallback", "Merchant", "Sandbox", "SandboxError", "sandbox_command", "verify_callback"]
