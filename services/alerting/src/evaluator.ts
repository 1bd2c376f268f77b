import { nameUuid } from '@earshot/events';
import type { AlertRule, TenantEventType } from '@earshot/contracts';
import { inTenant, sql, type ConnectionPool, type Queryable } from '@earshot/db';
import type { EventLog } from '@earshot/log';
import { metricNamed } from '@earshot/metrics';
import { enabledAlertRuleRows, incidentStatus, readSeries } from '@earshot/read-models';
import { UNFENCED, type Fence } from '@earshot/server';
import { decide, type RuleState } from './rule-state';
import { appendTenantEvents, type TenantEvent } from './tenant-events';

const ALERT_ID_NAMESPACE = '5f0b2d0e-7c1a-4b8e-9d3f-0a6c4e2b1d77';

type Rule = Pick<AlertRule, 'id' | 'name' | 'metric' | 'agentId' | 'comparison' | 'threshold' | 'windowMs' | 'forMs' | 'severity'>;

interface StateRow {
  rule_id: string;
  breaching_since: Date | null;
  alert_id: string | null;
  incident_id: string | null;
}

const INCIDENT_SEVERITY = { critical: 'critical', warning: 'high', info: 'low' } as const;

/** A rule's metric over the window ending now, from the same series code GET /metrics answers with. */
export async function ruleValue(tx: Queryable, rule: Rule, now: Date): Promise<number | null> {
  const definition = metricNamed(rule.metric);
  if (!definition) return null;
  const [point] = await readSeries(tx, {
    source: definition.source,
    from: new Date(now.getTime() - rule.windowMs),
    to: now,
    intervalMs: rule.windowMs,
    agentId: rule.agentId ?? undefined,
  });
  return point?.value ?? null;
}

function describe(rule: Rule, value: number): string {
  const op = { gt: '>', gte: '≥', lt: '<', lte: '≤' }[rule.comparison];
  return `${rule.name ?? rule.metric}: ${rule.metric} = ${Math.round(value * 1000) / 1000} ${op} ${rule.threshold} over ${rule.windowMs / 60_000} min${rule.agentId ? ` for ${rule.agentId}` : ''}`;
}

async function openIncident(tx: Queryable, id: string | null): Promise<boolean> {
  if (id === null) return false;
  // Not yet projected counts as open: the evaluator appended it moments ago.
  return (await incidentStatus(tx, id)) !== 'resolved';
}

/** One evaluation of one tenant's rules: the events to append and the states to keep. */
async function evaluateTenant(
  tx: Queryable,
  tenantId: string,
  now: Date,
): Promise<{ events: TenantEvent<TenantEventType>[]; states: { ruleId: string; state: RuleState; value: number | null }[] }> {
  const rules = (await enabledAlertRuleRows(tx)).map((r): Rule => ({
    id: r.id,
    name: r.name,
    metric: r.metric,
    agentId: r.agent_id,
    comparison: r.comparison,
    threshold: r.threshold,
    windowMs: Number(r.window_ms),
    forMs: Number(r.for_ms),
    severity: r.severity,
  }));
  const kept = new Map(
    ((await tx.query(sql`select rule_id, breaching_since, alert_id, incident_id from alert_rule_states where tenant_id = ${tenantId}`)) as StateRow[]).map(
      (s) => [s.rule_id, s],
    ),
  );
  const events: TenantEvent<TenantEventType>[] = [];
  const states: { ruleId: string; state: RuleState; value: number | null }[] = [];
  for (const rule of rules) {
    const row = kept.get(rule.id);
    const state: RuleState = { breachingSince: row?.breaching_since ?? null, alertId: row?.alert_id ?? null, incidentId: row?.incident_id ?? null };
    const value = await ruleValue(tx, rule, now);
    const decision = decide(rule, value, state, now);
    let next = decision.state;
    if (decision.action === 'fire' && value !== null) {
      const alertId = nameUuid(`${tenantId}\n${rule.id}\n${decision.breachingSince.toISOString()}`, ALERT_ID_NAMESPACE);
      const message = describe(rule, value);
      events.push({
        type: 'alert.fired',
        key: `alert.fired:${alertId}`,
        subject: alertId,
        data: {
          alert_id: alertId,
          rule_id: rule.id,
          rule_name: rule.name,
          metric: rule.metric,
          comparison: rule.comparison,
          threshold: rule.threshold,
          value,
          window_ms: rule.windowMs,
          severity: rule.severity,
          agent_id: rule.agentId,
          message,
        },
      });
      let incidentId = state.incidentId;
      if (await openIncident(tx, incidentId)) {
        events.push({
          type: 'incident.updated',
          key: `incident.note:${alertId}`,
          subject: incidentId ?? alertId,
          data: {
            incident_id: incidentId ?? alertId,
            title: null,
            severity: null,
            status: null,
            description: null,
            note: `alert ${alertId} fired: ${message}`,
            affected_agents: null,
            affected_calls: null,
            resolved_at: null,
            updated_by: 'alerting',
          },
        });
      } else {
        incidentId = `inc-${alertId}`;
        events.push({
          type: 'incident.created',
          key: `incident.created:${incidentId}`,
          subject: incidentId,
          data: {
            incident_id: incidentId,
            title: `Alert: ${rule.name ?? rule.metric}`,
            severity: INCIDENT_SEVERITY[rule.severity ?? 'warning'],
            status: 'open',
            description: `Opened by alert ${alertId} of rule ${rule.id}. ${message}`,
            affected_agents: rule.agentId ? [rule.agentId] : [],
            affected_calls: [],
            started_at: decision.breachingSince.toISOString(),
            opened_by: 'alerting',
          },
        });
      }
      next = { ...next, alertId, incidentId };
    }
    if (decision.action === 'resolve') {
      events.push({
        type: 'alert.resolved',
        key: `alert.resolved:${decision.alertId}`,
        subject: decision.alertId,
        data: {
          alert_id: decision.alertId,
          rule_id: rule.id,
          metric: rule.metric,
          value,
          fired_at: null,
          resolution: 'recovered',
          resolved_by: 'alerting',
        },
      });
      if (state.incidentId !== null && (await openIncident(tx, state.incidentId))) {
        events.push({
          type: 'incident.updated',
          key: `incident.resolved:${decision.alertId}`,
          subject: state.incidentId,
          data: {
            incident_id: state.incidentId,
            title: null,
            severity: null,
            status: 'resolved',
            description: null,
            note: `alert ${decision.alertId} resolved: ${rule.metric} = ${value ?? 'no data'} (threshold ${rule.threshold})`,
            affected_agents: null,
            affected_calls: null,
            resolved_at: now.toISOString(),
            updated_by: 'alerting',
          },
        });
      }
      next = { ...next, incidentId: null };
    }
    states.push({ ruleId: rule.id, state: next, value });
  }
  return { events, states };
}

/**
 * One pass over every tenant's rules. The alerting module runs it in one
 * process at a time, under a lease; `fence` confirms the lease is still this
 * process's before each tenant's events are appended, so a holder that lost
 * it (it hung past the lease) appends nothing. The events are appended
 * before the new states are stored: a crash in between repeats the same
 * events (same keys), which the projector applies once.
 */
export async function evaluateRules(db: ConnectionPool, log: EventLog, now: Date, fence: Fence = UNFENCED): Promise<{ rules: number; events: number }> {
  const tenants = (await db.query(sql`select id::text as id from tenants order by id`)) as { id: string }[];
  let rules = 0;
  let appended = 0;
  for (const { id: tenantId } of tenants) {
    const { events, states } = await inTenant(db, tenantId, (tx) => evaluateTenant(tx, tenantId, now));
    if (events.length > 0) {
      await fence.confirm();
      await appendTenantEvents(log, tenantId, now, events);
    }
    await inTenant(db, tenantId, async (tx) => {
      for (const { ruleId, state, value } of states) {
        await tx.query(sql`
          insert into alert_rule_states (tenant_id, rule_id, breaching_since, alert_id, incident_id, last_value, evaluated_at)
          values (${tenantId}, ${ruleId}, ${state.breachingSince}, ${state.alertId}, ${state.incidentId}, ${value}, ${now})
          on conflict (tenant_id, rule_id) do update set breaching_since = excluded.breaching_since, alert_id = excluded.alert_id,
            incident_id = excluded.incident_id, last_value = excluded.last_value, evaluated_at = excluded.evaluated_at`);
      }
    });
    rules += states.length;
    appended += events.length;
  }
  return { rules, events: appended };
}
