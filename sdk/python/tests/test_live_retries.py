"""[retry-5xx], [retry-429], [idempotent-retry], [no-retry-4xx]"""

from __future__ import annotations

import time

import pytest

from earshot import Earshot, NotFoundError, ValidationError

from .conftest import Faults, scenario, unique


@scenario("retry-5xx")
def test_a_503_then_200_succeeds_after_one_retry(_scenario: str, proxied: Earshot, faults: Faults) -> None:
    faults.add("GET", "/api/v1/calls", [{"status": 503}])
    assert isinstance(proxied.calls.list(limit=1).first_page().items, list)
    assert [r["status"] for r in faults.log()] == [503, 200]


@scenario("retry-429")
def test_a_429_is_waited_out_for_its_retry_after(_scenario: str, proxied: Earshot, faults: Faults) -> None:
    faults.add("GET", "/api/v1/realtime", [{"status": 429, "retryAfter": 1}])
    started = time.monotonic()
    assert proxied.realtime.retrieve().concurrent_calls >= 0
    assert time.monotonic() - started >= 1.0
    assert [r["status"] for r in faults.log()] == [429, 200]


@scenario("idempotent-retry")
def test_a_write_applied_then_answered_503_is_retried_with_its_key_and_exists_once(_scenario: str, proxied: Earshot, faults: Faults) -> None:
    call_id = unique("call")
    faults.add("POST", "/api/v1/outcomes", [{"status": 503, "afterForwarding": True}])
    created = proxied.outcomes.create(call_id=call_id, type="appointment_booked", value="tuesday 10:00", revenue_usd=120)
    posts = [r for r in faults.log() if r["method"] == "POST"]
    assert [r["status"] for r in posts] == [503, 201]
    assert posts[0]["idempotencyKey"] and posts[1]["idempotencyKey"] == posts[0]["idempotencyKey"]
    assert [o.id for o in proxied.outcomes.list(call_id=call_id)] == [created.id]


@scenario("no-retry-4xx")
def test_a_400_and_a_404_are_not_retried(_scenario: str, proxied: Earshot, faults: Faults) -> None:
    with pytest.raises(NotFoundError):
        proxied.calls.retrieve("00000000-0000-4000-8000-000000000000")
    with pytest.raises(ValidationError):
        proxied.calls.list(limit=0).first_page()
    assert [f"{r['path']} {r['status']}" for r in faults.log()] == ["/api/v1/calls/00000000-0000-4000-8000-000000000000 404", "/api/v1/calls 400"]
