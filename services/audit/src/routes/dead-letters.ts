import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ApiError, validationError, type FieldIssue } from '@earshot/contracts';
import { platformQuery, sql, type ConnectionPool } from '@earshot/db';
import { openDeadLetterBody, type KeyLookup } from '@earshot/events';
import type { Intake } from '@earshot/intake';
import { AUDIT_CURSOR, DeadLetterListQuerySchema, DeadLetterParamsSchema, type DeadLetterRecord } from '../audit-records';
import { replayDeadLetter, type HeldDeadLetter } from '../dead-letter-replay';
import { newestFirst, pageOf, pagingOf } from '@earshot/server';

/** Where the routes get the data keys that open sealed bodies (DataKeys.lookup): those that still exist. */
export type DeadLetterKeys = (keyIds: readonly string[]) => Promise<KeyLookup>;

interface DeadLetterRow extends Omit<HeldDeadLetter, 'body'> {
  body: Buffer;
  sealed_with: string | null;
  received_at: Date;
  source: DeadLetterRecord['source'];
  reason: string;
  fields: FieldIssue[];
  event_type: string | null;
  idempotency_key: string | null;
  status: DeadLetterRecord['status'];
  replay_attempts: number;
  last_replayed_at: Date | null;
  replayed_event_ids: string[];
}

type OpenedRow = Omit<DeadLetterRow, 'body'> & HeldDeadLetter;

const COLUMNS = sql`id, tenant_id, provider, received_at, source, reason, fields, body, sealed_with, event_type, idempotency_key, status, replay_attempts, last_replayed_at, replayed_event_ids`;

/**
 * Opens the sealed bodies of rows with the keys of all of them, looked up once; an erased body (its key destroyed) is
 * undefined. A body that cannot be opened (its bytes altered, or not sealed with the key `sealed_with` names) is
 * undefined too, marked unreadable and logged, rather than failing every letter read with it.
 */
async function opener(rows: readonly DeadLetterRow[], keys: DeadLetterKeys, logger: FastifyBaseLogger): Promise<(row: DeadLetterRow) => OpenedRow> {
  const lookup = await keys(rows.flatMap((row) => row.sealed_with ?? []));
  return (row) => {
    try {
      const body = openDeadLetterBody(row, lookup);
      return { ...row, body: body === undefined ? undefined : Buffer.from(body), unreadable: false };
    } catch (error) {
      logger.error(
        { err: error, deadLetterId: row.id, sealedWith: row.sealed_with },
        'a dead letter’s sealed body cannot be opened: its bytes were altered, or it is not sealed with the key it names',
      );
      return { ...row, body: undefined, unreadable: true };
    }
  };
}

function recordOf(row: OpenedRow): DeadLetterRecord {
  const text = row.body === undefined ? '' : new TextDecoder('utf-8', { fatal: false }).decode(row.body);
  return {
    id: row.id,
    tenantId: row.tenant_id,
    provider: row.provider,
    receivedAt: row.received_at.toISOString(),
    source: row.source,
    reason: row.reason,
    fields: row.fields,
    eventType: row.event_type,
    idempotencyKey: row.idempotency_key,
    status: row.status,
    replayAttempts: row.replay_attempts,
    lastReplayedAt: row.last_replayed_at?.toISOString() ?? null,
    replayedEventIds: row.replayed_event_ids,
    body: row.body !== undefined && Buffer.from(text, 'utf8').equals(row.body) ? text : null,
    bodyBase64: row.body?.toString('base64') ?? null,
    erased: row.body === undefined && !row.unreadable,
    unreadable: row.unreadable,
  };
}

async function findDeadLetter(db: ConnectionPool, keys: DeadLetterKeys, raw: unknown, logger: FastifyBaseLogger): Promise<OpenedRow> {
  const params = DeadLetterParamsSchema.safeParse(raw);
  if (!params.success) throw validationError(params.error, 'path');
  const [row] = (await platformQuery(db, sql`select ${COLUMNS} from dead_letters where id = ${params.data.id}`)) as DeadLetterRow[];
  if (!row) throw new ApiError('NOT_FOUND', `no dead letter ${params.data.id}`);
  return (await opener([row], keys, logger))(row);
}

/**
 * The dead-letter store for the operator: list (newest first), read one, and
 * replay one through the gateway's intake once its cause is fixed. Every
 * tenant's letters (and those naming none): read as the platform role. A
 * sealed body is opened to be shown or replayed; once its key is destroyed
 * (its call's or its tenant's) it shows as erased, and cannot be replayed.
 * One that cannot be opened (altered) shows as unreadable, and cannot be
 * replayed either.
 */
export function registerDeadLetterRoutes(app: FastifyInstance, db: ConnectionPool, keys: DeadLetterKeys, intake: Intake, now: () => Date): void {
  const admin = { config: { policy: { auth: 'admin' as const } } };

  app.get('/api/v1/admin/dead-letters', admin, async (request) => {
    const query = DeadLetterListQuerySchema.safeParse(request.query);
    if (!query.success) throw validationError(query.error, 'query');
    const { tenantId, status } = query.data;
    const paging = pagingOf(query.data, AUDIT_CURSOR);
    const keyset = newestFirst('received_at', 'id', paging, 'descending');
    const rows = (await platformQuery(
      db,
      sql`
      select ${COLUMNS} from dead_letters
       where ${tenantId ? sql`tenant_id = ${tenantId}` : sql`true`}
         and ${status ? sql`status = ${status}` : sql`true`}
         and ${keyset.where}
       ${keyset.order} ${keyset.window}`,
    )) as DeadLetterRow[];
    const open = await opener(rows, keys, request.log);
    return pageOf(
      rows,
      paging,
      (r) => ({ v: r.received_at.toISOString(), id: r.id }),
      (r) => recordOf(open(r)),
    );
  });

  app.get('/api/v1/admin/dead-letters/:id', admin, async (request) => ({
    ok: true,
    deadLetter: recordOf(await findDeadLetter(db, keys, request.params, request.log)),
  }));

  app.post('/api/v1/admin/dead-letters/:id/replay', admin, async (request) => {
    const letter = await findDeadLetter(db, keys, request.params, request.log);
    return replayDeadLetter(db, intake, letter, now());
  });
}
