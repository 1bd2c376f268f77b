"""The live Earshot the scenarios run against, from the environment the harness sets, and the fault proxy in front of it."""

from __future__ import annotations

import os
import time
import uuid
from typing import Any, Callable, Dict, Iterator, List, Optional, TypeVar

import httpx
import pytest

from earshot import Earshot

T = TypeVar("T")


F = TypeVar("F", bound=Callable[..., Any])


def scenario(name: str) -> Callable[[F], F]:
    """Names a test after its scenario of sdk/scenarios.json: pytest reports it as ``test_…[name]``."""
    mark: Callable[[F], F] = pytest.mark.parametrize("_scenario", [name], ids=[name])
    return mark


def required(name: str) -> str:
    """An environment variable the live scenarios need; run them through the harness (test/sdk/python.int.test.ts) or set it."""
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"the live scenarios need {name}: run them through test/sdk/python.int.test.ts or set it")
    return value


def unique(label: str) -> str:
    """A label no earlier run used."""
    return f"{label}-{uuid.uuid4().hex[:10]}"


def eventually(check: Callable[[], Optional[T]], what: str, timeout: float = 20.0) -> T:
    """Waits until ``check`` answers something other than None (the read models follow the log within moments)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def call_events(provider_call_id: str, agent_id: str, started_at: Optional[float] = None) -> List[Dict[str, Any]]:
    """A short call's events: started, one agent turn, ended."""
    start = time.time() - 60 if started_at is None else started_at

    def at(seconds: float) -> str:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(start + seconds)) + "Z"

    call = {"provider_call_id": provider_call_id, "agent_id": agent_id}
    return [
        {"type": "call.started", "version": "2026-01-01", "occurred_at": at(0), "call": call, "data": {}},
        {
            "type": "agent.response.generated",
            "version": "2026-01-01",
            "occurred_at": at(2),
            "call": call,
            "data": {"turn_id": "t1", "text": "How can I help?", "latency": {"asr_ms": 120, "llm_ms": 340, "tts_ms": 90, "total_ms": 550}},
        },
        {"type": "call.ended", "version": "2026-01-01", "occurred_at": at(9), "call": call, "data": {"ended_reason": "customer_hangup", "duration_ms": 9000}},
    ]


class Faults:
    """The fault proxy's controls."""

    def __init__(self, url: str) -> None:
        self.url = url

    def add(self, method: str, path: str, answers: List[Dict[str, Any]]) -> None:
        """Queues answers for the next requests matching ``method`` and ``path``."""
        response = httpx.post(f"{self.url}/__faults", json={"method": method, "path": path, "answers": answers})
        assert response.status_code == 204, response.text

    def log(self) -> List[Dict[str, Any]]:
        """What passed the proxy since the last clear."""
        entries: List[Dict[str, Any]] = httpx.get(f"{self.url}/__faults/log").json()
        return entries

    def clear(self) -> None:
        """Forgets queued faults and the log."""
        httpx.delete(f"{self.url}/__faults")

    def drop_streams(self) -> None:
        """Cuts every WebSocket through the proxy."""
        httpx.post(f"{self.url}/__faults/drop-streams")


@pytest.fixture
def client() -> Iterator[Earshot]:
    """A client of the live server, from the environment alone."""
    with Earshot() as earshot:
        yield earshot


@pytest.fixture
def faults() -> Iterator[Faults]:
    """The fault proxy, cleared before the test."""
    proxy = Faults(required("EARSHOT_FAULT_PROXY_URL"))
    proxy.clear()
    yield proxy


@pytest.fixture
def proxied(faults: Faults) -> Iterator[Earshot]:
    """A client whose requests go through the fault proxy."""
    with Earshot(base_url=f"{faults.url}/api/v1") as earshot:
        yield earshot
