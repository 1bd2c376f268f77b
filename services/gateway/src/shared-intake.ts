import type { ConnectionPool } from '@earshot/db';
import { IdempotencyStore } from '@earshot/idempotency';
import type { EventLog } from '@earshot/log';
import { Intake } from './intake';

/** The idempotency scope of ingested envelopes: every intake shares it, so a replayed envelope meets the keys the gateway saw. */
export const INGEST_IDEMPOTENCY = { scope: 'ingest', retentionMs: 72 * 3_600_000 } as const;

export interface SharedIntake {
  intake: Intake;
  /** Waits for idempotent answers still being stored. */
  close(): Promise<void>;
}

/**
 * The gateway's intake for another service in process: the same validation,
 * idempotency, encoding and appends (events and dead letters) as
 * POST /webhooks/ingest, without HTTP, signatures or rate limits. The audit
 * service re-submits dead letters through it.
 */
export function openIntake(
  deps: { db: ConnectionPool; log: EventLog; now: () => Date },
  options: { appendTimeoutMs?: number; duplicateWaitMs?: number } = {},
): SharedIntake {
  const idempotency = new IdempotencyStore(deps.db, { ...INGEST_IDEMPOTENCY, now: deps.now });
  const intake = new Intake({
    log: deps.log,
    idempotency,
    appendTimeoutMs: options.appendTimeoutMs ?? 5_000,
    duplicateWaitMs: options.duplicateWaitMs ?? 10_000,
  });
  return { intake, close: () => idempotency.settled() };
}
