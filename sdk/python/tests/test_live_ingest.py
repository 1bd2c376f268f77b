"""[ingest-then-read], [ingest-batches], [batcher-loses-nothing]"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional

import pytest

from earshot import AsyncEarshot, Earshot, NotFoundError
from earshot.models import Call, CallDetail

from .conftest import Faults, call_events, eventually, scenario, unique


@scenario("ingest-then-read")
def test_a_call_sent_signed_reads_back_with_its_turn(_scenario: str, client: Earshot) -> None:
    provider_call_id = unique("read")
    sent = client.ingest.send(call_events(provider_call_id, "agent_support"))
    assert (sent.accepted, sent.duplicates, sent.dead_lettered) == (3, 0, 0)
    assert [r.status for r in sent.results] == ["accepted"] * 3
    assert len({r.idempotency_key for r in sent.results}) == 3

    def listed() -> Optional[Call]:
        return next((c for c in client.calls.list(agent_id="agent_support", limit=100) if c.provider_call_id == provider_call_id), None)

    call = eventually(listed, "the call to be listed")

    def ended() -> Optional[CallDetail]:
        detail = client.calls.retrieve(call.id)
        return detail if detail.turns and detail.ended_at else None

    detail = eventually(ended, "the call to end with its turn")
    assert (detail.provider_call_id, detail.agent_id, detail.provider) == (provider_call_id, "agent_support", "sdk")
    assert [t.turn_id for t in detail.turns] == ["t1"]


def test_erasing_a_call_with_a_reason_removes_its_key_and_rows_and_it_reads_as_not_found(client: Earshot) -> None:
    provider_call_id = unique("erase")
    client.ingest.send(call_events(provider_call_id, "agent_erase_py"))

    def listed() -> Optional[Call]:
        return next((c for c in client.calls.list(agent_id="agent_erase_py", limit=100) if c.provider_call_id == provider_call_id), None)

    call = eventually(listed, "the call to be listed")
    erased = client.calls.erase(call.id, reason="the caller asked to be forgotten")
    assert (erased.ok, erased.id, erased.already_erased) == (True, str(call.id), False)
    assert erased.rows_deleted > 0
    with pytest.raises(NotFoundError):
        client.calls.retrieve(call.id)
    with pytest.raises(NotFoundError):
        client.calls.erase("00000000-0000-4000-8000-000000000000", reason="never was")


@scenario("ingest-batches")
def test_1200_events_go_as_3_signed_requests_answered_in_order(_scenario: str, proxied: Earshot, faults: Faults) -> None:
    run = unique("batch")
    events = [{**e, "idempotency_key": f"{run}-{i}"} for i, e in enumerate(e for n in range(400) for e in call_events(f"{run}-{n}", "agent_batch"))]
    sent = proxied.ingest.send(events)
    assert [r["status"] for r in faults.log() if r["path"] == "/api/v1/webhooks/ingest"] == [202, 202, 202]
    assert len(sent.results) == 1200 and sent.accepted == 1200
    assert [r.idempotency_key for r in sent.results] == [e["idempotency_key"] for e in events]

    invalid = {**events[8], "idempotency_key": f"{run}-invalid", "version": "1999-01-01"}
    again = proxied.ingest.send([events[7], invalid])
    assert again.results[0].status == "duplicate" and again.results[0].id == sent.results[7].id
    assert again.results[1].status == "dead_lettered" and "version" in (again.results[1].reason or "")
    assert again.results[1].dead_letter_id
    assert (again.accepted, again.duplicates, again.dead_lettered) == (0, 1, 1)


def _load_events(agent_id: str, producer: int) -> List[Dict[str, Any]]:
    return [
        {
            "type": "call.started",
            "version": "2026-01-01",
            "idempotency_key": f"{agent_id}-{producer}-{i}",
            "occurred_at": "2026-01-01T00:00:00Z",
            "call": {"provider_call_id": f"{agent_id}-{producer}-{i}", "agent_id": agent_id},
            "data": {},
        }
        for i in range(1000)
    ]


@scenario("batcher-loses-nothing")
def test_5000_events_from_5_threads_through_a_batcher_are_each_stored_once(_scenario: str, proxied: Earshot, faults: Faults, client: Earshot) -> None:
    agent_id = unique("agent_load")
    errors: List[Exception] = []
    most_pending = 0
    batcher = proxied.ingest.batcher(max_events=250, max_delay=0.05, max_pending=600, on_error=lambda error, _events: errors.append(error))

    def produce(producer: int) -> None:
        nonlocal most_pending
        for event in _load_events(agent_id, producer):
            batcher.add(event)
            most_pending = max(most_pending, batcher.pending)

    threads = [threading.Thread(target=produce, args=(p,)) for p in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    batcher.close()
    assert errors == []
    assert most_pending <= 600
    assert (batcher.totals.accepted, batcher.totals.duplicates, batcher.totals.dead_lettered, batcher.totals.failed) == (5000, 0, 0, 0)
    requests = [r for r in faults.log() if r["path"] == "/api/v1/webhooks/ingest"]
    assert len(requests) >= 20 and all(r["status"] == 202 for r in requests)

    def stored() -> Optional[List[str]]:
        ids = [c.provider_call_id for c in client.calls.list(agent_id=agent_id, limit=200)]
        return ids if len(ids) >= 5000 else None

    ids = eventually(stored, "5,000 calls to be listed", timeout=180)
    assert len(ids) == 5000 and len(set(ids)) == 5000


async def test_the_async_batcher_loses_nothing_either(faults: Faults) -> None:
    agent_id = unique("agent_async_load")
    async with AsyncEarshot(base_url=f"{faults.url}/api/v1") as earshot:
        batcher = earshot.ingest.batcher(max_events=100, max_delay=0.05, max_pending=300)
        for producer in range(2):
            for event in _load_events(agent_id, producer)[:500]:
                await batcher.add(event)
                assert batcher.pending <= 300
        await batcher.close()
        assert (batcher.totals.accepted, batcher.totals.failed) == (1000, 0)
