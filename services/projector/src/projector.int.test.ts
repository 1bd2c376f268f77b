import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MIGRATIONS, inTenant, migrate, sql, type ConnectionPool } from '@earshot/db';
import { decodeDeadLetter } from '@earshot/events';
import { TOPICS, type EventLog, type LogRecord } from '@earshot/log';
import { sampleEvent } from '@earshot/events/samples';
import { openTestDatabase } from '../../../test/support/database';
import { kafkaLog } from '../../../test/support/infra';
import { appendEvents } from './fixtures/append-events';
import { callScript } from './fixtures/call-script';
import { waitUntilCaughtUp } from './fixtures/caught-up';
import { callIdOf } from './projected-event';
import { startProjector } from './projector';
import { PROJECTOR_MIGRATIONS } from './store/migration-sets';

describe('projector on the real broker and Postgres', () => {
  let db: ConnectionPool;
  let log: EventLog;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('projector'));
    await migrate(db, [DATABASE_MIGRATIONS, ...PROJECTOR_MIGRATIONS]);
    log = await kafkaLog('projector');
  });
  afterAll(async () => {
    await log.close();
    await close();
  });

  it('projects a 30-turn call into calls, turns, transcripts, traces, rollups and usage', async () => {
    const tenant = randomUUID();
    await appendEvents(log, callScript({ tenant, providerCallId: 'call-happy', outcome: true }));
    const projector = await startProjector({ db, log });
    await waitUntilCaughtUp(db, log);
    await projector.stop();

    const callId = callIdOf(tenant, 'vapi', 'call-happy');
    await inTenant(db, tenant, async (tx) => {
      const [call] = await tx.query(sql`select * from calls where id = ${callId}`);
      expect(call).toMatchObject({ status: 'completed', agent_id: 'agent_support', turn_count: 30, tool_call_count: 6, interruptions: 3 });
      expect(call.latency_total_ms).toBeGreaterThan(0);
      expect(await tx.query(sql`select count(*)::int as n from turns where call_id = ${callId}`)).toEqual([{ n: 30 }]);
      expect(await tx.query(sql`select count(*)::int as n from transcripts where call_id = ${callId} and is_final`)).toEqual([{ n: 60 }]);
      expect(await tx.query(sql`select count(*)::int as n from traces where call_id = ${callId} and kind = 'tool_call' and status = 'completed'`)).toEqual([{ n: 6 }]);
      expect(await tx.query(sql`select count(*)::int as n from outcomes`)).toEqual([{ n: 1 }]);
      const [turns] = await tx.query(sql`select sum(count)::int as n, earshot_sketch_quantile(earshot_sketch_union(sketch), 0.5) as p50 from metric_rollups where metric = 'turn.latency.total_ms'`);
      expect(turns.n).toBe(30);
      const totals = (await tx.query(sql`select total_ms from turns order by total_ms`)).map((r: { total_ms: number }) => r.total_ms);
      // The sketch's p50 is the value of rank 0.5 * (n - 1), within 1%.
      const exact = totals[Math.floor(0.5 * (totals.length - 1))] ?? 0;
      expect(Math.abs(turns.p50 - exact) / exact).toBeLessThanOrEqual(0.01);
      const [usage] = await tx.query(sql`select sum(calls)::int as calls, sum(events_ingested)::int as events from usage_meters`);
      expect(usage.calls).toBe(1);
    });
  });
});
