# test_orders.py - pytest with the sandpiper plugin, in a folder where @sandpiper/sandbox is installed
# (docs/guides/test-in-your-own-suite.md "Python"): python -m pytest test_orders.py, or with -n 2 (pytest-xdist).
import http.server
import threading
import time
import uuid

import pytest

from sandpiper import InvalidCallback, verify_callback
from sandpiper.api_client.api.payments import create_payment, get_payment
from sandpiper.api_client.api.sandbox import complete_sandbox_payment
from sandpiper.api_client.models import (
    CompleteSandboxPayment,
    CompleteSandboxPaymentOutcome,
    CreatePayment,
    CreatePaymentCurrency,
    CreatePaymentDirection,
    CreatePaymentMethod,
    Payment,
    PaymentStatus,
)


class Receiver(http.server.ThreadingHTTPServer):
    """Your server's callback endpoint stands here: it keeps what it gets and answers 200."""

    def __init__(self):
        self.received = []  # (headers, raw body bytes)

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(handler):
                body = handler.rfile.read(int(handler.headers["Content-Length"]))
                self.received.append((handler.headers, body))
                handler.send_response(200)
                handler.end_headers()

            def log_message(handler, *args):
                pass

        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_port}/callbacks"

    def wait_for(self, count, timeout=30):
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(self.received) >= count, f"{len(self.received)} callbacks arrived, expected {count}"
        return self.received[:count]


@pytest.fixture
def receiver():
    server = Receiver()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def sandpiper_merchant_options(receiver):
    """Each test's merchant sends its callbacks to this test's receiver."""
    return {"callback_url": receiver.url}


def deposit(reference, amount="10.00"):
    return {"reference": reference, "amount": amount, "currency": "USD", "method": "GATEWAY", "direction": "DEPOSIT"}


def test_a_concluded_payment_sends_a_signed_callback(sandpiper_merchant, receiver):
    # The typed client (sandpiper.api_client, generated from the OpenAPI document): models in, models out.
    api = sandpiper_merchant.api_client
    body = CreatePayment(
        reference="order-1",
        amount="10.00",
        currency=CreatePaymentCurrency.USD,
        method=CreatePaymentMethod.GATEWAY,
        direction=CreatePaymentDirection.DEPOSIT,
    )
    payment = create_payment.sync(client=api, body=body, idempotency_key=str(uuid.uuid4()))
    assert isinstance(payment, Payment), payment  # otherwise an Error: payment.error.code says which
    assert payment.status == PaymentStatus.PENDING

    outcome = CompleteSandboxPayment(outcome=CompleteSandboxPaymentOutcome.SUCCEEDED)
    done = complete_sandbox_payment.sync(payment.id, client=api, body=outcome, idempotency_key=str(uuid.uuid4()))
    assert isinstance(done, Payment), done
    assert get_payment.sync(payment.id, client=api).status == PaymentStatus.SUCCEEDED

    [(headers, body)] = receiver.wait_for(1)
    event = verify_callback(body, headers, sandpiper_merchant.callback_secret)
    assert event["type"] == "payment.succeeded"
    assert event["data"]["id"] == str(payment.id)
    with pytest.raises(InvalidCallback) as refused:
        verify_callback(body.replace(b"order-1", b"order-2"), headers, sandpiper_merchant.callback_secret)
    assert refused.value.reason == "BAD_SIGNATURE"


def test_a_pending_payment_expires_when_the_merchants_clock_moves(sandpiper_merchant, receiver):
    client = sandpiper_merchant.client
    payment = client.post("/v1/payments", json=deposit("order-1")).json()  # the same reference: another merchant
    assert payment["status"] == "PENDING"

    sandpiper_merchant.advance("72h")

    assert client.get(f"/v1/payments/{payment['id']}").json()["status"] == "EXPIRED"
    [(headers, body)] = receiver.wait_for(1)
    assert verify_callback(body, headers, sandpiper_merchant.callback_secret)["type"] == "payment.expired"


def test_each_test_has_a_merchant_of_its_own(sandpiper, sandpiper_merchant):
    assert sandpiper_merchant.client.get("/v1/payments").json()["total"] == 0
    assert sandpiper_merchant.merchant_id != sandpiper.info["merchantId"]
    assert sandpiper_merchant.client.get("/v1/sandbox/clock").json()["offsetMs"] == 0


@pytest.mark.sandpiper_merchant(scenario_rules="standard")
def test_scenario_rules_for_one_test(sandpiper_merchant):
    # The standard rules: an amount of 13.13 fails.
    payment = sandpiper_merchant.client.post("/v1/payments", json=deposit("order-4", "13.13")).json()
    deadline = time.monotonic() + 30
    while payment["status"] != "FAILED" and time.monotonic() < deadline:
        time.sleep(0.1)
        payment = sandpiper_merchant.client.get(f"/v1/payments/{payment['id']}").json()
    assert payment["status"] == "FAILED"
