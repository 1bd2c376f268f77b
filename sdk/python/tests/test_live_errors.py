"""[typed-errors]"""

from __future__ import annotations

from typing import Callable

import pytest

from earshot import (
    APIError,
    AuthenticationError,
    Earshot,
    IdempotencyConflictError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    UnavailableError,
    ValidationError,
)

from .conftest import Faults, scenario, unique


def caught(request: Callable[[], object]) -> APIError:
    with pytest.raises(APIError) as raised:
        request()
    return raised.value


@scenario("typed-errors")
def test_each_code_is_its_own_error_class(_scenario: str, client: Earshot, proxied: Earshot, faults: Faults) -> None:
    with Earshot(api_key="ear_live_notARealKey") as stranger:
        unauthorized = caught(lambda: stranger.calls.list().first_page())
    assert isinstance(unauthorized, AuthenticationError) and (unauthorized.status, unauthorized.code) == (401, "UNAUTHORIZED")

    read_only = client.keys.create(name=unique("read-only"), scopes=["calls:read"])
    with Earshot(api_key=read_only.secret) as reader:
        forbidden = caught(lambda: reader.outcomes.create(call_id="c", type="t"))
    assert isinstance(forbidden, PermissionDeniedError) and (forbidden.status, forbidden.code) == (403, "FORBIDDEN")

    not_found = caught(lambda: client.calls.retrieve("00000000-0000-4000-8000-000000000000"))
    assert isinstance(not_found, NotFoundError) and (not_found.status, not_found.code) == (404, "NOT_FOUND")
    assert "call" in not_found.message

    invalid = caught(lambda: client.outcomes.create(call_id="c"))
    assert isinstance(invalid, ValidationError) and (invalid.status, invalid.code) == (400, "VALIDATION_ERROR")
    assert "body.type" in [f["path"] for f in invalid.fields]

    key = unique("key")
    client.outcomes.create(call_id=unique("call"), type="sale", idempotency_key=key)
    conflict = caught(lambda: client.outcomes.create(call_id=unique("call"), type="refund", idempotency_key=key))
    assert isinstance(conflict, IdempotencyConflictError) and conflict.status in (409, 422)

    once = proxied.with_options(max_retries=0)
    faults.add("GET", "/api/v1/calls", [{"status": 429, "retryAfter": 7}])
    limited = caught(lambda: once.calls.list().first_page())
    assert isinstance(limited, RateLimitError) and (limited.status, limited.code, limited.retry_after) == (429, "RATE_LIMITED", 7.0)

    faults.add("GET", "/api/v1/calls", [{"status": 503}])
    unavailable = caught(lambda: once.calls.list().first_page())
    assert isinstance(unavailable, UnavailableError) and (unavailable.status, unavailable.code) == (503, "UNAVAILABLE")
