"""Pure logic: signing, webhook verification against the official library, backoff, base URLs, batches, errors, 3.9 grammar."""

from __future__ import annotations

import ast
import base64
import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path

import httpx
import pytest
from standardwebhooks import Webhook

from earshot import DEFAULT_BASE_URL, Earshot, WebhookVerificationError, normalize_base_url, retry_delay, sign_ingest
from earshot._backoff import parse_retry_after
from earshot._errors import error_from_response
from earshot._ingest import batches_of
from earshot.models import ProviderCredentialRotateParams, VapiBearerCredentials
from earshot.resources._base import body

from .conftest import scenario

SDK = Path(__file__).resolve().parent.parent
VECTORS = json.loads((SDK.parent / "signing-vectors.json").read_text())["vectors"]


@scenario("signing-vectors")
def test_the_ingest_signature_equals_every_vector(_scenario: str) -> None:
    assert len(VECTORS) >= 4
    for vector in VECTORS:
        assert sign_ingest(vector["secret"], vector["timestamp"], vector["body"]) == vector["signature"]


@scenario("webhook-verify")
def test_webhooks_verify_what_the_official_library_signs_and_refuse_tampering(_scenario: str) -> None:
    secret = "whsec_" + base64.b64encode(os.urandom(24)).decode()
    webhooks = Earshot(api_key="ear_test_unit", webhook_secret=secret).webhooks
    body = json.dumps({"type": "alert.fired", "alert": {"id": "al_1", "value": 2140}})
    official = Webhook(secret)
    now = datetime.now(timezone.utc)
    signed = {"webhook-id": "msg_1", "webhook-timestamp": str(int(now.timestamp())), "webhook-signature": official.sign("msg_1", now, body)}
    assert webhooks.verify(body, signed) == json.loads(body)
    assert webhooks.verify(body.encode(), {k.upper(): v for k, v in signed.items()}) == json.loads(body)

    ours = webhooks.sign(body)
    assert official.verify(body, ours) == json.loads(body)
    assert webhooks.verify(body, ours) == json.loads(body)

    with pytest.raises(WebhookVerificationError):
        webhooks.verify(body.replace("2140", "2141"), signed)
    with pytest.raises(WebhookVerificationError, match="timestamp"):
        webhooks.verify(body, webhooks.sign(body, timestamp=int(time.time()) - 600))
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(body, signed, secret="whsec_" + base64.b64encode(os.urandom(24)).decode())
    with pytest.raises(WebhookVerificationError, match="missing"):
        webhooks.verify(body, {"webhook-id": "msg_1"})


def test_base_urls_with_or_without_api_v1_mean_the_same() -> None:
    for value in ["http://127.0.0.1:8080", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/api/v1", "http://127.0.0.1:8080/api/v1/", " http://127.0.0.1:8080// "]:
        assert normalize_base_url(value) == DEFAULT_BASE_URL
    assert normalize_base_url("https://earshot.example.com/tenant-a?x=1") == "https://earshot.example.com/tenant-a/api/v1"
    with pytest.raises(ValueError):
        normalize_base_url("ftp://earshot.example.com")


def test_backoff_doubles_to_eight_seconds_and_honours_retry_after() -> None:
    assert [retry_delay(r, None, lambda: 1.0) for r in (1, 2, 3, 4, 5, 9)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert [retry_delay(r, None, lambda: 0.0) for r in (1, 2, 5)] == [0.25, 0.5, 4.0]
    assert retry_delay(1, parse_retry_after("3"), lambda: 1.0) == 3.0
    assert parse_retry_after("Thu, 01 Jan 1970 00:00:10 GMT", now=4.0) == 6.0
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None


def test_batches_cut_at_500_events_and_before_900_kb_in_order() -> None:
    small = ['{"type":"call.started"}'] * 1200
    assert [len(b) for b in batches_of(small)] == [500, 500, 200]
    assert [i for b in batches_of(small) for i in b] == list(range(1200))
    assert [len(b) for b in batches_of(["x" * 200_000] * 10)] == [4, 4, 2]


def test_errors_follow_the_code_or_else_the_status() -> None:
    headers = httpx.Headers({"retry-after": "2"})
    limited = error_from_response(429, {"ok": False, "error": "slow down", "code": "RATE_LIMITED"}, headers)
    assert type(limited).__name__ == "RateLimitError" and getattr(limited, "retry_after") == 2.0
    assert type(error_from_response(409, {"ok": False, "error": "used", "code": "IDEMPOTENCY_MISMATCH"}, headers)).__name__ == "IdempotencyConflictError"
    assert type(error_from_response(405, {"ok": False, "error": "no", "code": "METHOD_NOT_ALLOWED"}, headers)).__name__ == "APIError"
    proxy = error_from_response(502, "<html>bad gateway</html>", headers)
    assert type(proxy).__name__ == "ProviderError" and proxy.code == "UNKNOWN"


def test_a_model_given_as_a_field_sends_only_its_fields_set_not_nulls() -> None:
    # Vapi's bearer credentials have optional fields; sent as null they would be a VALIDATION_ERROR.
    credentials = VapiBearerCredentials(type="bearer", token="sdk_vapi_token_0123")
    rotation = body(ProviderCredentialRotateParams, None, {"credentials": credentials, "overlap_seconds": 60})
    assert rotation == {"credentials": {"type": "bearer", "token": "sdk_vapi_token_0123"}, "overlapSeconds": 60}


def test_the_sources_parse_as_python_3_9() -> None:
    # The suite runs on the interpreter at hand; this keeps the grammar within the oldest supported.
    for source in (SDK / "src" / "earshot").rglob("*.py"):
        ast.parse(source.read_text(), filename=str(source), feature_version=(3, 9))
