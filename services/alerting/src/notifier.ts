import { randomUUID } from 'node:crypto';
import { signBody, standardWebhookHeaders, type SecretBox } from '@earshot/auth';
import type { StoredEvent } from '@earshot/contracts';
import { inTenant, sql, type ConnectionPool } from '@earshot/db';
import { eventId } from '@earshot/events';
import type { EventLog, LogRecord, Running } from '@earshot/log';
import { eventsTopic } from '@earshot/topics';

export interface NotifierOptions {
  db: ConnectionPool;
  log: EventLog;
  /** Opens the tenant's webhook secret, which signs each notification. */
  secrets: SecretBox;
  now: () => Date;
  group?: string;
  /** Attempts per notification, the first included. */
  attempts?: number;
  /** First retry delay; each next one doubles. */
  backoffMs?: number;
  timeoutMs?: number;
}

const NOTIFIED = new Set(['alert.fired', 'alert.resolved']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a tenant's webhook receives: the event as it is on the log, minus the bookkeeping fields. */
export function notificationBody(event: StoredEvent): string {
  return JSON.stringify({ type: event.type, version: event.version, idempotency_key: event.idempotency_key, occurred_at: event.occurred_at, data: event.data });
}

/**
 * Delivers alert.fired and alert.resolved to the tenant's webhook, signed
 * the Standard Webhooks way under the tenant's webhook secret (webhook-id,
 * the same on every retry; webhook-timestamp; webhook-signature
 * `v1,<base64>`), so the official standardwebhooks libraries verify us.
 * The former X-Earshot-Timestamp and X-Earshot-Signature (HMAC-SHA256 of
 * "timestamp.body" keyed with the secret's text) are still sent for one
 * version. Retries with doubling backoff; every attempt is recorded. At
 * least once: the log position is committed after delivery.
 */
export async function startNotifier(options: NotifierOptions): Promise<Running> {
  const box = options.secrets;
  const attempts = options.attempts ?? 6;
  const backoffMs = options.backoffMs ?? 1_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let stopping = false;

  async function deliver(event: StoredEvent, tenantId: string): Promise<void> {
    const [hook] = (await inTenant(options.db, tenantId, (tx) => tx.query(sql`select url from alert_webhooks where enabled`))) as { url: string }[];
    if (!hook) return;
    const [tenant] = (await options.db.query(sql`select webhook_secret from tenants where id = ${tenantId}`)) as { webhook_secret: Buffer }[];
    if (!tenant) return;
    const secret = box.open(tenant.webhook_secret);
    const body = notificationBody(event);
    const alertId = 'alert_id' in event.data ? String(event.data.alert_id) : '';
    const messageId = `msg_${eventId(tenantId, event.idempotency_key)}`;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const timestamp = String(Math.floor(options.now().getTime() / 1000));
      const started = Date.now();
      let httpStatus: number | null = null;
      let error: string | null = null;
      try {
        const response = await fetch(hook.url, {
          method: 'POST',
          body,
          signal: AbortSignal.timeout(timeoutMs),
          headers: {
            'content-type': 'application/json',
            ...standardWebhookHeaders([secret], messageId, timestamp, Buffer.from(body)),
            'x-earshot-timestamp': timestamp,
            'x-earshot-signature': signBody(secret, timestamp, Buffer.from(body)),
            'x-earshot-event': event.type,
            'idempotency-key': event.idempotency_key,
          },
        });
        httpStatus = response.status;
        await response.arrayBuffer().catch(() => undefined);
      } catch (failure) {
        error = failure instanceof Error ? failure.message : String(failure);
      }
      const delivered = httpStatus !== null && httpStatus >= 200 && httpStatus < 300;
      const last = delivered || attempt === attempts || stopping;
      await inTenant(options.db, tenantId, (tx) =>
        tx.query(sql`
        insert into alert_notifications (tenant_id, id, event_key, event_type, alert_id, attempt, url, status, http_status, error, duration_ms, at)
        values (${tenantId}, ${randomUUID()}, ${event.idempotency_key}, ${event.type}, ${alertId}, ${attempt}, ${hook.url},
                ${delivered ? 'delivered' : last ? 'failed' : 'retrying'}, ${httpStatus}, ${error ?? (delivered ? null : `HTTP ${httpStatus}`)}, ${Date.now() - started}, ${options.now()})`),
      );
      if (last) return;
      await sleep(backoffMs * 2 ** (attempt - 1));
    }
  }

  const consumer = await options.log.consume({
    group: options.group ?? 'alert-notifications',
    topics: [eventsTopic.name],
    onBatch: async (records: readonly LogRecord[]) => {
      for (const record of records) {
        if (!NOTIFIED.has(record.headers.type ?? '')) continue;
        const event = eventsTopic.read(record);
        await deliver(event, event.tenant);
      }
    },
  });
  return {
    stop: async () => {
      stopping = true;
      await consumer.stop();
    },
  };
}
