"""[pagination]"""

from __future__ import annotations

import time
from typing import List, Optional

from earshot import AsyncEarshot, Earshot, SyncPage
from earshot.models import Call

from .conftest import call_events, eventually, scenario, unique


@scenario("pagination")
def test_lists_iterate_every_call_across_pages_and_the_page_api_agrees(_scenario: str, client: Earshot) -> None:
    agent_id = unique("agent_pages")
    client.ingest.send([e for i in range(23) for e in call_events(f"{agent_id}-{i}", agent_id, time.time() - 3600 + i * 60)])
    eventually(lambda: True if len(client.calls.list(agent_id=agent_id, limit=100).to_list()) == 23 else None, "23 calls")

    iterated = list(client.calls.list(agent_id=agent_id, limit=7))
    assert len(iterated) == 23 and len({c.id for c in iterated}) == 23
    started = [c.started_at for c in iterated]
    assert started == sorted(started, reverse=True)

    pages: List[SyncPage[Call]] = []
    page: Optional[SyncPage[Call]] = client.calls.list(agent_id=agent_id, limit=7).first_page()
    while page is not None:
        pages.append(page)
        page = page.next_page()
    assert [len(p.items) for p in pages] == [7, 7, 7, 2]
    assert pages[-1].next_cursor is None and not pages[-1].has_next_page()
    assert [c.id for p in pages for c in p.items] == [c.id for c in iterated]


async def test_async_lists_iterate_the_same_calls(client: Earshot) -> None:
    agent_id = unique("agent_async_pages")
    client.ingest.send([e for i in range(9) for e in call_events(f"{agent_id}-{i}", agent_id)])
    eventually(lambda: True if len(client.calls.list(agent_id=agent_id).to_list()) == 9 else None, "9 calls")
    async with AsyncEarshot() as earshot:
        listed = [call.id async for call in earshot.calls.list(agent_id=agent_id, limit=4)]
        first = await earshot.calls.list(agent_id=agent_id, limit=4).first_page()
    assert listed == [c.id for c in client.calls.list(agent_id=agent_id, limit=4)]
    assert [c.id for c in first.items] == listed[:4]
