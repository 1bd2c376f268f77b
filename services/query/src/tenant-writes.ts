import { createHash, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { recordAudit } from '@earshot/audit-trail';
import { nameUuid, sealingKeys, type DataKey, type EventSealing } from '@earshot/events';
import {
  ApiError,
  CURRENT_EVENT_VERSION,
  IdempotencyHeadersSchema,
  StoredEventSchema,
  type AcceptedWrite,
  type EventData,
  type StoredEvent,
  type TenantEventType,
} from '@earshot/contracts';
import type { ConnectionPool } from '@earshot/db';
import type { IdempotencyStore } from '@earshot/idempotency';
import type { EventLog } from '@earshot/log';
import { eventsTopic } from '@earshot/topics';
import { appendWithin } from '@earshot/server';
import { untilApplied } from './read-your-writes';

/** Namespace of ids derived from an Idempotency-Key: a retry after the 24 hours still writes the same record. */
const WRITE_ID_NAMESPACE = '9a3f1c0e-4b7d-4e2a-8c55-61d0f2b7e913';

/** Who sends the tenant's own events, in the place a provider's name goes. */
const API_PROVIDER = 'earshot-api';

export interface TenantWrite<T extends TenantEventType> {
  type: T;
  /** The record's id, when the client chose one (writing it again upserts). */
  id: string | undefined;
  /** The event's data for the record's final id. */
  data: (id: string) => EventData<T>;
}

export interface TenantWriteOptions {
  db: ConnectionPool;
  log: EventLog;
  idempotency: IdempotencyStore;
  appendTimeoutMs: number;
  now: () => Date;
  /** Seals each write's personal fields with the data key the gateway would use (sealingKeys); written in the clear without it. */
  sealing?: EventSealing;
}

export interface WriteAnswer {
  status: number;
  body: AcceptedWrite;
  replayed: boolean;
}

/**
 * The tenant's writes: each becomes an event on the log (the projector makes
 * it readable), answered 201 once the log holds it and the projector has
 * applied it (so the writer reads what it wrote), recorded in the audit
 * log, and idempotent under the Idempotency-Key header: the same key and
 * body replay the first answer, another body is 409 IDEMPOTENCY_MISMATCH,
 * a key still in flight 409 IDEMPOTENCY_CONFLICT. Keys are per tenant and
 * shared by every POST route, so a key reused on another route is another
 * body.
 */
export class TenantWrites {
  constructor(private readonly options: TenantWriteOptions) {}

  async write<T extends TenantEventType>(request: FastifyRequest, write: TenantWrite<T>): Promise<WriteAnswer> {
    const caller = request.caller;
    if (!caller) throw new Error('a write reached its handler without a caller');
    const tenantId = caller.tenant.id;
    const key = idempotencyKeyOf(request);
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    const id = write.id ?? (key === undefined ? randomUUID() : nameUuid(`${tenantId}\n${route}\n${key}`, WRITE_ID_NAMESPACE));
    if (key === undefined) return { status: 201, body: await this.append(request, write, id, `api:${write.type}:${randomUUID()}`), replayed: false };

    const requestHash = createHash('sha256')
      .update(route)
      .update('\n')
      .update(JSON.stringify(request.body ?? null))
      .digest();
    const [claim] = await this.options.idempotency.claim([{ tenantId, key, requestHash }]).catch((error: unknown) => {
      // The key was checked above, so a failure here is the store's: an outage to retry, not a bug.
      request.log.error({ err: error }, 'the idempotency store failed');
      throw new ApiError('UNAVAILABLE', 'the idempotency store is unavailable; nothing was written, retry later');
    });
    if (!claim || claim.state === 'in_flight')
      throw new ApiError('IDEMPOTENCY_CONFLICT', `a request with Idempotency-Key ${key} is still being processed; retry later`);
    if (claim.state === 'done') {
      if (!claim.requestHash.equals(requestHash))
        throw new ApiError('IDEMPOTENCY_MISMATCH', `Idempotency-Key ${key} was used with another request; use a new key for a new write`);
      return { status: claim.status, body: claim.response as AcceptedWrite, replayed: true };
    }
    try {
      const body = await this.append(request, write, id, eventKeyOf(write.type, key, requestHash));
      await this.options.idempotency.complete([{ tenantId, key, requestHash, status: 201, response: body }]);
      return { status: 201, body, replayed: false };
    } catch (error) {
      // Given up, so a retry with the key starts afresh; the event key is the same, so the projector applies it once.
      await this.options.idempotency.release([{ tenantId, key }]).catch(() => undefined);
      throw error;
    }
  }

  private async append<T extends TenantEventType>(request: FastifyRequest, write: TenantWrite<T>, id: string, eventKey: string): Promise<AcceptedWrite> {
    const caller = request.caller;
    if (!caller) throw new Error('a write reached its handler without a caller');
    const tenantId = caller.tenant.id;
    const at = this.options.now().toISOString();
    const event = StoredEventSchema.parse({
      type: write.type,
      version: CURRENT_EVENT_VERSION,
      idempotency_key: eventKey,
      occurred_at: at,
      tenant: tenantId,
      provider: API_PROVIDER,
      received_at: at,
      call: null,
      data: write.data(id),
    });
    const sealWith = await this.sealingKey(request, event);
    const [position] = await appendWithin(this.options.log, [eventsTopic.record(event, { recordId: id, sealWith })], this.options.appendTimeoutMs);
    if (position) await untilApplied(this.options.db, position, this.options.appendTimeoutMs);
    await recordAudit(this.options.db, {
      tenantId,
      actor: { kind: 'apiKey', keyId: caller.keyId, keyName: caller.keyName },
      at: request.arrivedAt,
      action: write.type,
      target: id,
      ip: request.ip,
      requestId: request.id,
      detail: { route: `${request.method} ${request.routeOptions.url ?? request.url}` },
    });
    return { ok: true, id };
  }

  private async sealingKey(request: FastifyRequest, event: StoredEvent): Promise<DataKey | undefined> {
    const { sealing } = this.options;
    if (!sealing) return undefined;
    const [key] = await sealingKeys(sealing, { tenantId: event.tenant, provider: event.provider }, [event]).catch((error: unknown) => {
      request.log.error({ err: error }, 'the data key store failed');
      throw new ApiError('UNAVAILABLE', 'the data key store is unavailable; nothing was written, retry later');
    });
    return key;
  }
}

/** The longest idempotency key an event carries. */
const EVENT_KEY_MAX = 255;

/**
 * The event's idempotency key for a write under the client's key: the key
 * and the body's hash, so the same key reused after its 24 hours for another
 * body is another event. A client key long enough to push it past the
 * event's limit is replaced by its SHA-256, which keeps both properties.
 */
export function eventKeyOf(type: TenantEventType, key: string, requestHash: Buffer): string {
  const body = requestHash.toString('hex').slice(0, 16);
  const readable = `api:${type}:${key}:${body}`;
  if (readable.length <= EVENT_KEY_MAX) return readable;
  return `api:${type}:sha256=${createHash('sha256').update(key).digest('hex')}:${body}`;
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  const key = Array.isArray(value) ? value[0] : value;
  if (key === undefined) return undefined;
  // The contract's rule for any key that is stored, so a key the idempotency store cannot hold never reaches it.
  if (!IdempotencyHeadersSchema.safeParse({ 'idempotency-key': key }).success)
    throw new ApiError('VALIDATION_ERROR', 'Idempotency-Key must be 1 to 255 characters without control characters PostgreSQL cannot hold', {
      fields: [{ path: 'Idempotency-Key', message: '1 to 255 characters, no NUL' }],
    });
  return key;
}
