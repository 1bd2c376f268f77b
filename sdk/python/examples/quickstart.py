"""The README's quick start, as one script: send 100 events, list the calls, get one, record an outcome, catch a 404.

Run it with EARSHOT_API_KEY, EARSHOT_BASE_URL and EARSHOT_WEBHOOK_SECRET set: ``python quickstart.py``.
"""

import time
import uuid
from datetime import datetime, timedelta, timezone

from earshot import Earshot, NotFoundError

client = Earshot()  # reads EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET

# 1. Send 100 events (20 calls of 5 events), signed, in batches of 25.
run = uuid.uuid4().hex[:8]
agent_id = f"quickstart-{run}"
started = datetime.now(timezone.utc) - timedelta(minutes=1)


def at(seconds: int) -> str:
    return (started + timedelta(seconds=seconds)).isoformat()


with client.ingest.batcher(max_events=25) as batcher:
    for i in range(20):
        call = {"provider_call_id": f"{run}-{i}", "agent_id": agent_id}
        batcher.add({"type": "call.started", "version": "2026-01-01", "occurred_at": at(0), "call": call, "data": {}})
        batcher.add({"type": "call.answered", "version": "2026-01-01", "occurred_at": at(1), "call": call, "data": {}})
        batcher.add(
            {
                "type": "transcript.final",
                "version": "2026-01-01",
                "occurred_at": at(3),
                "call": call,
                "data": {"turn_id": "t1", "speaker": "customer", "text": "I need to move my appointment"},
            }
        )
        batcher.add(
            {
                "type": "agent.response.generated",
                "version": "2026-01-01",
                "occurred_at": at(4),
                "call": call,
                "data": {"turn_id": "t1", "text": "Sure, which day suits you?", "latency": {"asr_ms": 180, "llm_ms": 420, "tts_ms": 130, "total_ms": 730}},
            }
        )
        batcher.add({"type": "call.ended", "version": "2026-01-01", "occurred_at": at(30), "call": call, "data": {"duration_ms": 30000}})
# Leaving the block sent what was left and waited for every answer.
totals = batcher.totals
print(f"sent 100 events: {totals.accepted} accepted, {totals.duplicates} duplicates, {totals.dead_lettered} dead-lettered")

# 2. List the calls (they appear within moments of the events), page after page.
calls = client.calls.list(agent_id=agent_id, limit=10).to_list()
for _ in range(100):
    if len(calls) == 20:
        break
    time.sleep(0.2)
    calls = client.calls.list(agent_id=agent_id, limit=10).to_list()
print(f"listed {len(calls)} calls of {agent_id}")

# 3. Get one, with its turns and transcript.
detail = client.calls.retrieve(calls[0].id)
print(f"call {detail.id}: {detail.status}, {len(detail.turns)} turn(s), {len(detail.transcript)} transcript line(s)")

# 4. Record what the call achieved.
outcome = client.outcomes.create(call_id=str(detail.id), type="appointment_moved", value="tuesday 10:00", revenue_usd=0)
print(f"outcome {outcome.id} recorded")

# 5. Errors are typed: a call that does not exist is a NotFoundError.
try:
    client.calls.retrieve("00000000-0000-4000-8000-000000000000")
except NotFoundError as error:
    print(f"no such call: {error.status} {error.code}")
