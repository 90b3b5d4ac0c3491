"""A Sandpiper sandbox run by its command, and the merchants made in it.

docs/guides/test-in-your-own-suite.md "Python" and "Other languages": the ``sandpiper-sandbox`` command of the
``@sandpiper/sandbox`` npm package prints one JSON line once it serves, answers the lines ``reset`` and
``merchant {json}`` of its standard input with one JSON line each, and stops when its standard input closes.
A merchant is made with ``POST <url>/v1/sandbox/merchants`` and the start's ``sandboxToken``.
"""

from __future__ import annotations

import atexit
import collections
import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta
from typing import Any, Deque, Dict, List, Optional, Sequence, Union

import httpx

from .api_client import AuthenticatedClient

__all__ = ["Merchant", "Sandbox", "SandboxError", "sandbox_command"]

#: The default command: the package installed in the current folder's node_modules. ``--no`` keeps npx from
#: fetching a package of that name from a registry when none is installed.
DEFAULT_COMMAND = "npx --no -- sandpiper-sandbox"
#: Seconds a start may take (the command's own limit); ``SANDPIPER_START_TIMEOUT`` changes it.
DEFAULT_START_TIMEOUT = 120.0
#: Seconds a ``reset`` or a request to the sandbox may take.
REQUEST_TIMEOUT = 60.0
_EOF = object()


class SandboxError(RuntimeError):
    """The sandbox did not start, did not do what was asked, or is stopped; the message says why."""


def sandbox_command(environ: Optional[Dict[str, str]] = None) -> List[str]:
    """The command that starts a sandbox, as a list of arguments.

    ``SANDPIPER_SANDBOX_COMMAND`` (a command line, split as a POSIX shell would, without running a shell) when set and
    not blank, else ``npx --no -- sandpiper-sandbox``: the package installed in the current folder.

    :raises SandboxError: when the command line cannot be split (an unclosed quote).
    """
    env = os.environ if environ is None else environ
    line = env.get("SANDPIPER_SANDBOX_COMMAND", "").strip() or DEFAULT_COMMAND
    try:
        argv = shlex.split(line)
    except ValueError as error:
        raise SandboxError(f"SANDPIPER_SANDBOX_COMMAND could not be read as a command line ({error}): {line!r}") from None
    # Windows finds npx as npx.cmd only through its full path.
    found = shutil.which(argv[0])
    return [found or argv[0], *argv[1:]]


def _start_timeout(environ: Optional[Dict[str, str]] = None) -> float:
    """``SANDPIPER_START_TIMEOUT`` in seconds (default 120). :raises SandboxError: for a value that is not a number
    from 1 to 3600."""
    env = os.environ if environ is None else environ
    text = env.get("SANDPIPER_START_TIMEOUT", "").strip()
    if text == "":
        return DEFAULT_START_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 1 <= seconds <= 3600:
        raise SandboxError(f"SANDPIPER_START_TIMEOUT must be a number of seconds from 1 to 3600, got {text!r}")
    return seconds


def _error_message(response: httpx.Response) -> str:
    """The service's error envelope ``{error: {code, message}}`` as one line, or the status and body."""
    try:
        error = response.json()["error"]
        return f"{response.status_code} {error['code']}: {error['message']}"
    except Exception:
        return f"{response.status_code}: {response.text[:500]}"


def _add_idempotency_key(request: httpx.Request) -> None:
    """Gives a POST without an Idempotency-Key a random one, as the typed client does (docs/client.md)."""
    if request.method == "POST" and "idempotency-key" not in request.headers:
        request.headers["Idempotency-Key"] = str(uuid.uuid4())


def _duration(by: Union[str, int, float, timedelta]) -> str:
    """The sandbox clock's duration for ``by`` (docs/api.md "Sandbox clock"): a string as it is (``"2h"``, ``"72h"``,
    ``"35d"``, ``"PT2H"``; the service checks it), a ``timedelta`` or a number of seconds in whole seconds above 0.

    :raises ValueError: for a number or timedelta that is not a whole number of seconds above 0.
    """
    if isinstance(by, str):
        return by
    seconds = by.total_seconds() if isinstance(by, timedelta) else by
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0 or seconds != int(seconds):
        raise ValueError(f'advance: give a duration such as "2h" or "35d", a timedelta or whole seconds above 0, got {by!r}')
    return f"{int(seconds)}s"


class Merchant:
    """One merchant of a running sandbox, with nothing shared with any other merchant: its own payments, events,
    callbacks, request log, sandbox clock, scenario rules and settings (docs/guides/test-in-your-own-suite.md).

    Attributes: ``merchant_id``; ``api_key`` (its key with every scope, ``keys["full"]``); ``keys`` (``full`` and
    ``readOnly``); ``callback_secret`` (the ``whsec_...`` secret its callbacks are signed with, None without a
    callback address); ``url`` (the sandbox's base URL); ``client``, an ``httpx.Client`` with ``base_url`` the
    sandbox and ``Authorization: Bearer <api_key>``, which gives each POST without an ``Idempotency-Key`` a random one;
    ``api_client``, the typed client generated from the OpenAPI document (:mod:`sandpiper.api_client`) for the same
    key: pass it as ``client=`` to an operation, e.g. ``create_payment.sync(client=merchant.api_client, ...)``.
    """

    def __init__(self, url: str, made: Dict[str, Any]) -> None:
        self.url: str = url
        self.merchant_id: str = made["merchantId"]
        self.api_key: str = made["apiKey"]
        self.keys: Dict[str, str] = dict(made["keys"])
        self.callback_secret: Optional[str] = made.get("callbackSecret")
        self.client: httpx.Client = httpx.Client(
            base_url=url,
            headers={"Authorization": f"Bearer {self.api_key}"},
            timeout=REQUEST_TIMEOUT,
            event_hooks={"request": [_add_idempotency_key]},
        )
        self.api_client: AuthenticatedClient = AuthenticatedClient(base_url=url, token=self.api_key, timeout=httpx.Timeout(REQUEST_TIMEOUT))

    def __repr__(self) -> str:
        return f"<sandpiper.Merchant {self.merchant_id} at {self.url}>"

    def advance(self, by: Union[str, int, float, timedelta]) -> Dict[str, Any]:
        """Moves this merchant's sandbox clock ahead by ``by`` and returns once what the move made due is done
        (docs/api.md "Sandbox clock"): its pending payments and checkout sessions whose ``expiresAt`` has passed are
        expired and their callbacks queued. Other merchants' clocks do not move. Assert right after it.

        :param by: ``"2h"``, ``"72h"``, ``"35d"``, ``"1d12h"``, an ISO 8601 duration such as ``"PT2H"``, a
            ``timedelta``, or a number of seconds (whole, above 0).
        :returns: the clock as ``GET /v1/sandbox/clock`` answers it once nothing is due (``offsetMs``, ``now``, ...).
        :raises ValueError: for a number that is not whole seconds above 0.
        :raises SandboxError: when the service refuses the duration (its message says why) or has not caught up
            within 60 s.
        """
        answer = self._clock("POST", "/advance", {"by": _duration(by)})
        deadline = time.monotonic() + REQUEST_TIMEOUT
        while sum(answer.get("due", {}).get(name, 0) for name in ("payments", "checkoutSessions")) > 0:
            if time.monotonic() > deadline:
                raise SandboxError(f"the sandbox did not expire what was due within {REQUEST_TIMEOUT:g} s")
            time.sleep(0.1)
            answer = self._clock("GET", "")
        return answer

    def reset_clock(self) -> Dict[str, Any]:
        """Puts this merchant's sandbox clock back to the real clock (docs/api.md "Sandbox clock"); times already given
        keep their values. :returns: the clock. :raises SandboxError: when the service refuses."""
        return self._clock("POST", "/reset")

    def _clock(self, method: str, route: str, body: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        response = self.client.request(method, f"/v1/sandbox/clock{route}", json=body)
        if response.status_code != 200:
            raise SandboxError(f"the sandbox clock refused: {_error_message(response)}")
        return response.json()

    def close(self) -> None:
        """Closes ``client`` and ``api_client``. The merchant stays in the sandbox until its ``reset()`` or stop."""
        self.client.close()
        self.api_client.get_httpx_client().close()


class Sandbox:
    """A running sandbox: the process of the ``sandpiper-sandbox`` command (docs/guides/test-in-your-own-suite.md).

    Attributes: ``url`` (``http://127.0.0.1:<port>``); ``sandbox_token`` (the bearer token of
    ``POST /v1/sandbox/merchants``, new at each start); ``info``, the whole JSON line the command printed (``apiKey``,
    ``keys``, ``merchantId``, ``callbackSecret`` and ``console`` of the seeded merchant, as in the guide's table).

    Start one with :meth:`start`; the pytest plugin's ``sandpiper`` fixture does, once per test process.
    """

    def __init__(self, process: subprocess.Popen, info: Dict[str, Any], lines: "queue.Queue[Any]", stderr: Deque[str]) -> None:
        self._process = process
        self._lines = lines
        self._stderr = stderr
        self._lock = threading.Lock()
        self._stopped = False
        self.info: Dict[str, Any] = info
        self.url: str = info["url"]
        self.sandbox_token: str = info["sandboxToken"]
        self._http = httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {self.sandbox_token}"}, timeout=REQUEST_TIMEOUT)
        atexit.register(self.stop)

    def __repr__(self) -> str:
        return f"<sandpiper.Sandbox {self.url}{' (stopped)' if self._stopped else ''}>"

    @classmethod
    def start(cls, command: Optional[Sequence[str]] = None, *, timeout: Optional[float] = None, cwd: Optional[str] = None) -> "Sandbox":
        """Starts the sandbox command and returns once the sandbox serves.

        Runs ``command`` (default :func:`sandbox_command`: ``SANDPIPER_SANDBOX_COMMAND`` or ``npx --no
        sandpiper-sandbox``) with ``--json --start-timeout-ms <timeout>`` added, its standard input a pipe that only
        this object writes to: the sandbox ends when that pipe closes, so also when this process is killed. Its
        standard error is kept (the last 200 lines) for the messages below.

        :param timeout: seconds the start may take (default ``SANDPIPER_START_TIMEOUT``, else 120).
        :param cwd: the folder to run it in (default the current one, where ``npx`` finds the installed package).
        :raises SandboxError: when the command is not found, ends or prints something else before it serves, or does
            not serve within ``timeout`` (plus 30 s for npx and Node.js to load); the message carries its last lines
            of standard error.
        """
        argv = list(command) if command is not None else sandbox_command()
        seconds = _start_timeout() if timeout is None else timeout
        argv += ["--json", "--start-timeout-ms", str(int(seconds * 1000))]
        popen: Dict[str, Any] = {}
        if os.name == "nt":
            popen["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
        else:
            # Its own process group: a Ctrl-C at the terminal reaches pytest, whose teardown stops the sandbox.
            popen["start_new_session"] = True
        try:
            process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, text=True, encoding="utf-8", bufsize=1, **popen
            )
        except OSError as error:
            raise SandboxError(
                f"could not run the sandbox command {shlex.join(argv)}: {error}. Install @sandpiper/sandbox in this folder "
                "(docs/guides/test-in-your-own-suite.md \"Install\") or set SANDPIPER_SANDBOX_COMMAND"
            ) from None
        lines: "queue.Queue[Any]" = queue.Queue()
        stderr: Deque[str] = collections.deque(maxlen=200)
        threading.Thread(target=_read_lines, args=(process.stdout, lines), name="sandpiper-stdout", daemon=True).start()
        threading.Thread(target=_keep_tail, args=(process.stderr, stderr), name="sandpiper-stderr", daemon=True).start()

        def fail(problem: str) -> SandboxError:
            _end(process)
            tail = "".join(stderr).strip()
            return SandboxError(f"{problem} (command: {shlex.join(argv)})" + (f"; its standard error:\n{tail}" if tail else ""))

        try:
            line = lines.get(timeout=seconds + 30)
        except queue.Empty:
            raise fail(f"the sandbox did not start within {seconds + 30:g} s") from None
        if line is _EOF:
            process.wait(timeout=10)
            raise fail(f"the sandbox command ended before the sandbox served (exit code {process.returncode})")
        try:
            info = json.loads(line)
            info["url"], info["sandboxToken"]
        except (ValueError, KeyError, TypeError):
            raise fail(f"the sandbox command printed {line.strip()[:300]!r}, not the JSON line with url and sandboxToken") from None
        return cls(process, info, lines, stderr)

    def merchant(self, *, callback_url: Optional[str] = None, scenario_rules: Optional[str] = None, fast_retries: Optional[bool] = None) -> Merchant:
        """Makes a new merchant in this sandbox with ``POST /v1/sandbox/merchants`` (docs/guides/test-in-your-own-suite.md
        "A merchant per test"): keys of every scope, the seeded merchant's pricing, its own everything. Milliseconds.

        :param callback_url: its callback address; a receiver on this machine (``http://127.0.0.1:<port>/...``) is
            allowed in the sandbox. Default none: events are kept, nothing is sent.
        :param scenario_rules: ``"standard"`` switches the standard scenario rules on; default ``"none"``.
        :param fast_retries: the callback retry schedule divided by 60; default True.
        :returns: the :class:`Merchant`; close it (or let the ``sandpiper_merchant`` fixture do it) to close its client.
        :raises TypeError: for an option not named above (Python's own check).
        :raises SandboxError: when the sandbox is stopped or refuses an option (its message says which and why).
        """
        options = {"callbackUrl": callback_url, "scenarioRules": scenario_rules, "fastRetries": fast_retries}
        self._check_running()
        try:
            response = self._http.post("/v1/sandbox/merchants", json={k: v for k, v in options.items() if v is not None})
        except httpx.HTTPError as error:
            raise SandboxError(f"the sandbox at {self.url} did not answer: {error}") from None
        if response.status_code != 201:
            raise SandboxError(f"the sandbox did not make a merchant: {_error_message(response)}")
        return Merchant(self.url, response.json())

    def reset(self) -> None:
        """Puts the sandbox back to the state right after its start (the command's ``reset`` line): no payments,
        events, deliveries or request log, no merchant made by :meth:`merchant`; the clock at the real time. Well under
        a second. Not needed with a merchant per test.

        :raises SandboxError: when the sandbox is stopped, refuses, or has not answered within 60 s.
        """
        if self._command("reset").get("reset") is not True:
            raise SandboxError("the sandbox did not confirm the reset")

    def _command(self, line: str) -> Dict[str, Any]:
        """Sends one line to the command's standard input and returns its JSON answer (one line).
        :raises SandboxError: when stopped, on an ``{"error": {...}}`` answer, or after 60 s without one."""
        with self._lock:
            self._check_running()
            try:
                assert self._process.stdin is not None
                self._process.stdin.write(line + "\n")
                self._process.stdin.flush()
                answer = self._lines.get(timeout=REQUEST_TIMEOUT)
            except (OSError, ValueError):
                answer = _EOF
            except queue.Empty:
                raise SandboxError(f"the sandbox did not answer {line!r} within {REQUEST_TIMEOUT:g} s") from None
        if answer is _EOF:
            raise SandboxError("the sandbox is stopped: its command ended" + self._tail())
        reply = json.loads(answer)
        if "error" in reply:
            raise SandboxError(f"the sandbox could not {line.split(' ')[0]}: {reply['error'].get('message')}")
        return reply

    def _check_running(self) -> None:
        if self._stopped:
            raise SandboxError("the sandbox is stopped")
        if self._process.poll() is not None:
            raise SandboxError(f"the sandbox is stopped: its command ended (exit code {self._process.returncode})" + self._tail())

    def _tail(self) -> str:
        tail = "".join(self._stderr).strip()
        return f"; its standard error:\n{tail}" if tail else ""

    def stop(self) -> None:
        """Stops the sandbox and waits until its process has ended: its standard input is closed (the command stops
        the sandbox, removes its temporary folder and exits), then after 15 s its process group gets SIGTERM, and after
        5 more SIGKILL. Safe to call more than once."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        atexit.unregister(self.stop)
        self._http.close()
        _end(self._process)


def _read_lines(stream: Any, lines: "queue.Queue[Any]") -> None:
    """Puts each line of the command's standard output in ``lines``, then the end marker."""
    try:
        for line in stream:
            if line.strip():
                lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(_EOF)


def _keep_tail(stream: Any, tail: Deque[str]) -> None:
    """Keeps the last lines of the command's standard error."""
    try:
        for line in stream:
            tail.append(line)
    except (OSError, ValueError):
        pass


def _end(process: subprocess.Popen) -> None:
    """Ends the command: closes its standard input, then signals its process group if it lingers."""
    try:
        if process.stdin is not None:
            process.stdin.close()
    except OSError:
        pass
    for sig, wait in ((None, 15.0), (signal.SIGTERM, 5.0), (getattr(signal, "SIGKILL", signal.SIGTERM), 5.0)):
        if sig is not None:
            try:
                if os.name == "nt":
                    process.kill()
                else:
                    os.killpg(process.pid, sig)
            except (OSError, ProcessLookupError):
                pass
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    if process.poll() is None:
        print(f"sandpiper: the sandbox command (pid {process.pid}) did not end", file=sys.stderr)
