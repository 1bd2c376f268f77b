import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallResourceSchema } from '@earshot/contracts';
import { sql, type ConnectionPool } from '@earshot/db';
import { callScript, logRecords, readModelStore, type ReadModelStore } from '@earshot/testing';

const ENDINGS = ['completed', 'failed', 'transferred', 'unanswered'] as const;

describe('calls.resource: each call as the API shows it', () => {
  let db: ConnectionPool;
  let store: ReadModelStore;

  beforeAll(async () => {
    store = await readModelStore('call_resource');
    db = store.db;
    const tenant = randomUUID();
    // 3.62 s past the minute, so a time written as Postgres writes it (".62") would differ from toISOString's (".620").
    const events = ENDINGS.flatMap((ending, i) =>
      callScript({ tenant, providerCallId: `call-${ending}`, turns: 3, ending, outcome: true, startMs: Date.parse('2026-01-08T09:30:01.120Z') + i * 60_000 }),
    );
    await store.apply(logRecords(events, 0n));
  });
  afterAll(() => store?.close());

  it('holds every call in CallResourceSchema’s shape, the same values as its columns', async () => {
    const rows = (await db.query(sql`select * from calls`)) as Record<string, unknown>[];
    expect(rows).toHaveLength(ENDINGS.length);
    const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : null);
    for (const row of rows) {
      const call = CallResourceSchema.strict().parse(JSON.parse(String(row.resource)));
      expect(call).toEqual({
        id: row.id,
        agentId: row.agent_id,
        status: row.status,
        startedAt: iso(row.started_at),
        answeredAt: iso(row.answered_at),
        endedAt: iso(row.ended_at),
        durationMs: row.duration_ms,
        qualityScore: row.quality_score,
        latency: { asrMs: row.latency_asr_ms, llmMs: row.latency_llm_ms, ttsMs: row.latency_tts_ms, totalMs: row.latency_total_ms },
        provider: row.provider,
        providerCallId: row.provider_call_id,
        endReason: row.end_reason,
        turnCount: row.turn_count,
        interruptions: row.interruptions,
        toolCallCount: row.tool_call_count,
        providerErrorCount: row.provider_error_count,
        costUsd: row.cost_usd,
        success: row.success,
        direction: row.direction,
        agentVersion: row.agent_version,
        customerId: row.customer_id,
        recordingUrl: row.recording_url,
        summary: row.summary,
      });
    }
  });
});
