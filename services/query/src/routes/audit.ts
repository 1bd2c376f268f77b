import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AuditListSchema, AuditQuerySchema, type AuditEntrySchema, type CursorKinds } from '@earshot/contracts';
import { sql, type SQLQuery, type TenantReads } from '@earshot/db';
import { newestFirst, pageOf, pagingOf, type Paging, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';

/** Newest first by time, then id, as the read model's index orders it. */
const CURSOR: CursorKinds = { value: 'time', id: 'text' };

interface AuditRow {
  id: string;
  at: Date;
  actor_kind: 'apiKey' | 'operator';
  key_id: string | null;
  key_name: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  request_id: string | null;
  detail: Record<string, unknown>;
}

function auditPageStatement(action: string | undefined, paging: Paging): SQLQuery {
  const keyset = newestFirst('at', 'id', paging);
  const byAction = action === undefined ? sql`true` : sql`action = ${action}`;
  return sql`
    select id, at, actor_kind, key_id, key_name, action, target, ip, request_id, detail
      from audit_entries where ${keyset.where} and ${byAction} ${keyset.order} ${keyset.window}`;
}

function entryOf(row: AuditRow): z.infer<typeof AuditEntrySchema> {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { kind: row.actor_kind, keyId: row.key_id, keyName: row.key_name },
    action: row.action,
    target: row.target,
    ip: row.ip,
    requestId: row.request_id,
    detail: row.detail,
  };
}

/** GET /audit: who did what to the tenant's data, newest first (writes through the API and operator actions). */
export function registerAuditRoutes(app: FastifyInstance, reads: TenantReads): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/audit',
    {
      schema: { querystring: AuditQuerySchema, response: { 200: AuditListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /audit') },
    },
    async (request) => {
      const paging = pagingOf(request.query, CURSOR);
      const rows = await readAs(reads, request, (tx) => tx.query(auditPageStatement(request.query.action, paging)) as Promise<AuditRow[]>);
      return pageOf(rows, paging, (r) => ({ v: r.at.toISOString(), id: r.id }), entryOf);
    },
  );
}
