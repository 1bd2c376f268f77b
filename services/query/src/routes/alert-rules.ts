import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AcceptedWriteSchema,
  AlertRuleAnswerSchema,
  AlertRuleInputSchema,
  AlertRuleListQuerySchema,
  AlertRuleListSchema,
  AlertRulePatchSchema,
  ApiError,
  ErrorBodySchema,
  IdempotencyHeadersSchema,
  RecordIdParamsSchema,
  type AlertRule,
  type CursorKinds,
  type EventData,
} from '@earshot/contracts';
import type { Statements, TenantReads } from '@earshot/db';
import { alertRuleRow, alertRuleRows, type AlertRuleRow } from '@earshot/read-models';
import { pageOf, pagingOf, ROUTE_ERRORS } from '@earshot/server';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import type { TenantWrites } from '../tenant-writes';

const CURSOR: CursorKinds = { value: 'none', id: 'text' };

function alertRuleOf(row: AlertRuleRow): AlertRule {
  return {
    id: row.id,
    name: row.name,
    metric: row.metric,
    agentId: row.agent_id,
    comparison: row.comparison,
    threshold: row.threshold,
    windowMs: Number(row.window_ms),
    forMs: Number(row.for_ms),
    severity: row.severity,
    enabled: row.enabled,
    description: row.description,
    changedBy: row.changed_by,
    changedAt: row.changed_at.toISOString(),
  };
}

/** The tenant's live (not deleted) rule, or undefined. */
async function readAlertRule(tx: Statements, id: string): Promise<AlertRule | undefined> {
  const row = await alertRuleRow(tx, id);
  return row && alertRuleOf(row);
}

async function existingRule(reads: TenantReads, request: FastifyRequest, id: string): Promise<AlertRule> {
  const rule = await readAs(reads, request, (tx) => readAlertRule(tx, id));
  if (!rule) throw new ApiError('NOT_FOUND', `no alert rule ${id}`);
  return rule;
}

function changeOf(rule: Omit<AlertRule, 'id' | 'changedBy' | 'changedAt'>, action: EventData<'alert.rule.changed'>['action'], by: string | null) {
  return (id: string): EventData<'alert.rule.changed'> => ({
    rule_id: id,
    action,
    name: rule.name,
    metric: rule.metric,
    agent_id: rule.agentId,
    comparison: rule.comparison,
    threshold: rule.threshold,
    window_ms: rule.windowMs,
    for_ms: rule.forMs,
    severity: rule.severity,
    enabled: rule.enabled,
    description: rule.description,
    changed_by: by,
  });
}

/**
 * Alert rules: each create, change and delete is an alert.rule.changed event
 * holding the whole rule, so the rules read model (and the evaluator) never
 * depend on the order changes arrive in.
 */
export function registerAlertRuleRoutes(app: FastifyInstance, reads: TenantReads, writes: TenantWrites): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const by = (request: FastifyRequest) => request.caller?.keyName ?? null;
  const ruleErrors = { ...ROUTE_ERRORS.read, 404: ErrorBodySchema };

  routes.get(
    '/alerts/rules',
    {
      schema: { querystring: AlertRuleListQuerySchema, response: { 200: AlertRuleListSchema, ...ROUTE_ERRORS.read } },
      config: { policy: policyOf('GET /alerts/rules') },
    },
    async (request) => {
      const paging = pagingOf(request.query, CURSOR);
      const rows = await readAs(reads, request, (tx) => alertRuleRows(tx, paging));
      return pageOf(rows, paging, (r) => ({ v: r.id, id: r.id }), alertRuleOf);
    },
  );

  routes.get(
    '/alerts/rules/:id',
    {
      schema: { params: RecordIdParamsSchema, response: { 200: AlertRuleAnswerSchema, ...ruleErrors } },
      config: { policy: policyOf('GET /alerts/rules') },
    },
    async (request) => ({ ok: true as const, rule: await existingRule(reads, request, request.params.id) }),
  );

  routes.post(
    '/alerts/rules',
    {
      schema: { headers: IdempotencyHeadersSchema, body: AlertRuleInputSchema, response: { 201: AcceptedWriteSchema, ...ROUTE_ERRORS.write } },
      config: { policy: policyOf('POST /alerts/rules') },
    },
    async (request, reply) => {
      const input = request.body;
      const rule = { ...input, name: input.name ?? null, agentId: input.agentId ?? null, description: input.description ?? null };
      const answer = await writes.write(request, { type: 'alert.rule.changed', id: input.id, data: changeOf(rule, 'created', by(request)) });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(answer.body);
    },
  );

  routes.patch(
    '/alerts/rules/:id',
    {
      schema: {
        params: RecordIdParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: AlertRulePatchSchema,
        response: { 200: AcceptedWriteSchema, ...ROUTE_ERRORS.write, 404: ErrorBodySchema },
      },
      config: { policy: policyOf('PATCH /alerts/rules/:id') },
    },
    async (request, reply) => {
      const current = await existingRule(reads, request, request.params.id);
      const patch = request.body;
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const rule = { ...current, ...defined };
      const answer = await writes.write(request, { type: 'alert.rule.changed', id: current.id, data: changeOf(rule, 'updated', by(request)) });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(200).send(answer.body);
    },
  );

  routes.delete(
    '/alerts/rules/:id',
    {
      schema: {
        params: RecordIdParamsSchema,
        headers: IdempotencyHeadersSchema,
        response: { 200: AcceptedWriteSchema, ...ROUTE_ERRORS.write, 404: ErrorBodySchema },
      },
      config: { policy: policyOf('DELETE /alerts/rules/:id') },
    },
    async (request, reply) => {
      const current = await existingRule(reads, request, request.params.id);
      const answer = await writes.write(request, {
        type: 'alert.rule.changed',
        id: current.id,
        data: changeOf({ ...current, enabled: false }, 'deleted', by(request)),
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(200).send(answer.body);
    },
  );
}
