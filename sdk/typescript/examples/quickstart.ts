// The README's quick start, as one script: send 100 events, list the calls, get one, record an outcome, catch a 404.
// Run it with EARSHOT_API_KEY, EARSHOT_BASE_URL and EARSHOT_WEBHOOK_SECRET set: `npx tsx quickstart.ts`.
import { Earshot, NotFoundError, type IngestEvent } from '@earshot/sdk';

const earshot = new Earshot(); // reads EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET

// 1. Send 100 events (20 calls of 5 events), signed, in batches of 25.
const run = Date.now().toString(36);
const agentId = `quickstart-${run}`;
const batcher = earshot.ingest.batcher({ maxEvents: 25 });
for (let i = 0; i < 20; i++) {
  const call = { provider_call_id: `${run}-${i}`, agent_id: agentId };
  const at = (seconds: number) => new Date(Date.now() - 60_000 + seconds * 1_000).toISOString();
  const events: IngestEvent[] = [
    { type: 'call.started', version: '2026-01-01', occurred_at: at(0), call, data: {} },
    { type: 'call.answered', version: '2026-01-01', occurred_at: at(1), call, data: {} },
    {
      type: 'transcript.final',
      version: '2026-01-01',
      occurred_at: at(3),
      call,
      data: { turn_id: 't1', speaker: 'customer', text: 'I need to move my appointment' },
    },
    {
      type: 'agent.response.generated',
      version: '2026-01-01',
      occurred_at: at(4),
      call,
      data: { turn_id: 't1', text: 'Sure, which day suits you?', latency: { asr_ms: 180, llm_ms: 420, tts_ms: 130, total_ms: 730 } },
    },
    { type: 'call.ended', version: '2026-01-01', occurred_at: at(30), call, data: { duration_ms: 30_000 } },
  ];
  for (const event of events) await batcher.add(event);
}
await batcher.close(); // sends what is left and waits for every answer
console.log(`sent 100 events: ${batcher.totals.accepted} accepted, ${batcher.totals.duplicates} duplicates, ${batcher.totals.deadLettered} dead-lettered`);

// 2. List the calls (they appear within moments of the events), page after page.
let calls = await earshot.calls.list({ agentId, limit: 10 }).toArray();
for (let tries = 0; calls.length < 20 && tries < 100; tries++) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  calls = await earshot.calls.list({ agentId, limit: 10 }).toArray();
}
console.log(`listed ${calls.length} calls of ${agentId}`);

// 3. Get one, with its turns and transcript.
const call = await earshot.calls.retrieve(calls[0]!.id);
console.log(`call ${call.id}: ${call.status}, ${call.turns.length} turn(s), ${call.transcript.length} transcript line(s)`);

// 4. Record what the call achieved.
const outcome = await earshot.outcomes.create({ callId: call.id, type: 'appointment_moved', value: 'tuesday 10:00', revenueUsd: 0 });
console.log(`outcome ${outcome.id} recorded`);

// 5. Errors are typed: a call that does not exist is a NotFoundError.
try {
  await earshot.calls.retrieve('00000000-0000-4000-8000-000000000000');
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  console.log(`no such call: ${error.status} ${error.code}`);
}
