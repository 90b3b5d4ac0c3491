"""The pytest plugin of the ``sandpiper`` package, registered with the ``pytest11`` entry point, so installing the
wheel is all it takes (docs/guides/test-in-your-own-suite.md "Python").

Fixtures:

- ``sandpiper`` (session): one sandbox for the test process, started on first use by the sandbox command
  (``SANDPIPER_SANDBOX_COMMAND``, else ``npx --no -- sandpiper-sandbox`` in the current folder) and stopped when the
  session ends, whatever the tests did. A :class:`sandpiper.Sandbox`: ``url``, ``sandbox_token``, ``info``,
  ``merchant(**options)``, ``reset()``.
- ``sandpiper_merchant`` (function): a new merchant for each test, made in that sandbox: a :class:`sandpiper.Merchant`
  with ``merchant_id``, ``api_key``, ``keys``, ``callback_secret``, ``client`` (an ``httpx.Client`` for its key) and
  ``advance(by)`` (its sandbox clock). Its options come from the ``sandpiper_merchant_options`` fixture (override it
  to give, for example, your receiver's ``callback_url``) and then the test's ``sandpiper_merchant`` marker.

With pytest-xdist each worker is a process of its own and so starts its own sandbox (docs/decisions/0208-*.md).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator

import pytest

from .sandbox import Merchant, Sandbox


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "sandpiper_merchant(callback_url=None, scenario_rules=None, fast_retries=None): "
        "options of this test's sandpiper_merchant, over those of the sandpiper_merchant_options fixture",
    )


@pytest.fixture(scope="session")
def sandpiper() -> Iterator[Sandbox]:
    """The test process's sandbox (docs/guides/test-in-your-own-suite.md "Python"), stopped at the session's end.

    :raises sandpiper.SandboxError: when it does not start (the message says why); every test using it then errors.
    """
    sandbox = Sandbox.start()
    try:
        yield sandbox
    finally:
        sandbox.stop()


@pytest.fixture
def sandpiper_merchant_options() -> Dict[str, Any]:
    """The options of each test's ``sandpiper_merchant``: ``callback_url``, ``scenario_rules``, ``fast_retries``
    (``Sandbox.merchant``). None by default; override this fixture in a conftest.py or a test module."""
    return {}


@pytest.fixture
def sandpiper_merchant(request: pytest.FixtureRequest, sandpiper: Sandbox, sandpiper_merchant_options: Dict[str, Any]) -> Iterator[Merchant]:
    """A new merchant for this test, in the process's sandbox: nothing of it is shared with any other test.

    :raises TypeError: for a marker with positional arguments or an unknown option.
    :raises sandpiper.SandboxError: when the sandbox refuses an option or is stopped.
    """
    options = dict(sandpiper_merchant_options)
    marker = request.node.get_closest_marker("sandpiper_merchant")
    if marker is not None:
        if marker.args:
            raise TypeError("the sandpiper_merchant marker takes keyword options only: callback_url, scenario_rules, fast_retries")
        options.update(marker.kwargs)
    merchant = sandpiper.merchant(**options)
    try:
        yield merchant
    finally:
        merchant.close()
