"""[stream-resume]"""

from __future__ import annotations

import asyncio
from typing import Callable, List

from earshot import AsyncEarshot, StreamEvent

from .conftest import Faults, call_events, scenario, unique


@scenario("stream-resume")
async def test_the_stream_resumes_after_a_drop_with_every_event_once(_scenario: str, faults: Faults) -> None:
    agent_id = unique("agent_stream")
    received: List[StreamEvent] = []
    async with AsyncEarshot(base_url=f"{faults.url}/api/v1") as earshot:
        stream = earshot.stream.subscribe(agent_id=agent_id)

        async def read() -> None:
            async for message in stream:
                received.append(message)

        async def wait_for(predicate: Callable[[], bool], what: str) -> None:
            for _ in range(200):
                if predicate():
                    return
                await asyncio.sleep(0.1)
            raise AssertionError(f"timed out waiting for {what}")

        reading = asyncio.ensure_future(read())
        await wait_for(lambda: stream.position is not None, "the stream to be ready")
        first = call_events(f"{agent_id}-1", agent_id)
        await earshot.ingest.send(first)
        await wait_for(lambda: len(received) >= 3, "the first call")

        faults.drop_streams()
        second = call_events(f"{agent_id}-2", agent_id)
        await earshot.ingest.send(second)
        await wait_for(lambda: len(received) >= 6, "the second call after the resume")
        third = call_events(f"{agent_id}-3", agent_id)
        await earshot.ingest.send(third)
        await wait_for(lambda: len(received) >= 9, "the third call")
        await asyncio.sleep(0.5)
        await stream.close()
        await reading

    assert stream.reconnects >= 1
    keys = [m.event["idempotency_key"] for m in received]
    assert len(set(keys)) == len(keys)
    sent = first + second + third
    assert [(m.event["call"]["provider_call_id"], m.event["type"]) for m in received] == [(e["call"]["provider_call_id"], e["type"]) for e in sent]
