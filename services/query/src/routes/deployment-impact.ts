import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiError,
  DeploymentImpactQuerySchema,
  DeploymentImpactSchema,
  ErrorBodySchema,
  RecordIdParamsSchema,
  type DeploymentImpact,
  type ImpactMetric,
} from '@earshot/contracts';
import type { Statements, TenantReads } from '@earshot/db';
import { METRICS, quantile, type Sketch, ALPHA, mannWhitney, mannWhitneyValues, twoProportion } from '@earshot/metrics';
import { agentSketch, callResults, deploymentRow, outcomeCountsAround } from '@earshot/read-models';
import { policyOf } from '../route-scopes';
import { readAs } from '../tenant-scope';
import { ROUTE_ERRORS } from '@earshot/server';

interface Window {
  from: Date;
  to: Date;
}

const LATENCY_PARTS = { total: METRICS.turnLatencyTotal, asr: METRICS.turnLatencyAsr, llm: METRICS.turnLatencyLlm, tts: METRICS.turnLatencyTts } as const;

async function callsIn(tx: Statements, agent: string, window: Window): Promise<{ completed: number; ended: number; quality: number[] }> {
  const rows = await callResults(tx, agent, window);
  return {
    completed: rows.filter((r) => r.status === 'completed').length,
    ended: rows.filter((r) => r.status !== 'in_progress').length,
    quality: rows.flatMap((r) => (r.quality_score === null ? [] : [r.quality_score])),
  };
}

function compared(
  metric: string,
  unit: string,
  before: { value: number | null; samples: number },
  after: { value: number | null; samples: number },
  test: ImpactMetric['test'],
  pValue: number | null,
  worseWhenHigher: boolean,
): ImpactMetric {
  const change = before.value === null || after.value === null ? null : after.value - before.value;
  const changePercent = change === null || !before.value ? null : (change / before.value) * 100;
  const significant = pValue !== null && pValue < ALPHA;
  const worse = change !== null && (worseWhenHigher ? change > 0 : change < 0);
  return { metric, unit, before, after, change, changePercent, test, pValue, significant, regression: significant && worse };
}

const mean = (values: readonly number[]) => (values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length);
const total = (sketch: Sketch) => Object.values(sketch).reduce((s, c) => s + c, 0);

/** The key metrics of the deployment's agent in the window before it and the window after, each with its test. */
async function deploymentImpact(
  tx: Statements,
  deployment: { id: string; agent: string; version: string; deployedAt: Date },
  windowMs: number,
): Promise<DeploymentImpact> {
  const at = deployment.deployedAt.getTime();
  const before = { from: new Date(at - windowMs), to: deployment.deployedAt };
  const after = { from: deployment.deployedAt, to: new Date(at + windowMs) };
  const metrics: ImpactMetric[] = [];
  for (const [part, metric] of Object.entries(LATENCY_PARTS)) {
    const [b, a] = [await agentSketch(tx, deployment.agent, metric, before), await agentSketch(tx, deployment.agent, metric, after)];
    const p95 = (s: Sketch) => {
      const q = quantile(s, 0.95);
      return q === null ? null : Math.round(q);
    };
    metrics.push(
      compared(
        `latency.${part}_ms.p95`,
        'ms',
        { value: p95(b), samples: total(b) },
        { value: p95(a), samples: total(a) },
        'mann-whitney',
        mannWhitney(b, a).pValue,
        true,
      ),
    );
  }
  const [cb, ca] = [await callsIn(tx, deployment.agent, before), await callsIn(tx, deployment.agent, after)];
  const rate = (c: { completed: number; ended: number }) => (c.ended === 0 ? null : c.completed / c.ended);
  metrics.push(
    compared(
      'calls.success_rate',
      'ratio',
      { value: rate(cb), samples: cb.ended },
      { value: rate(ca), samples: ca.ended },
      'two-proportion-z',
      twoProportion({ successes: cb.completed, trials: cb.ended }, { successes: ca.completed, trials: ca.ended }).pValue,
      false,
    ),
  );
  metrics.push(
    compared(
      'quality.avg',
      'score',
      { value: mean(cb.quality), samples: cb.quality.length },
      { value: mean(ca.quality), samples: ca.quality.length },
      'mann-whitney',
      mannWhitneyValues(cb.quality, ca.quality).pValue,
      false,
    ),
  );
  const outcomes = await outcomeCountsAround(tx, deployment.agent, deployment.deployedAt, { from: before.from, to: after.to });
  return {
    ok: true,
    deployment: { id: deployment.id, agent: deployment.agent, version: deployment.version, deployedAt: deployment.deployedAt.toISOString() },
    before: { from: before.from.toISOString(), to: before.to.toISOString() },
    after: { from: after.from.toISOString(), to: after.to.toISOString() },
    metrics,
    outcomes,
  };
}

/** GET /deployments/{id}/impact?windowMinutes=60: did this release make the agent slower, fail more or sound worse? */
export function registerDeploymentImpactRoutes(app: FastifyInstance, reads: TenantReads): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/deployments/:id/impact',
    {
      schema: {
        params: RecordIdParamsSchema,
        querystring: DeploymentImpactQuerySchema,
        response: { 200: DeploymentImpactSchema, ...ROUTE_ERRORS.read, 404: ErrorBodySchema },
      },
      config: { policy: policyOf('GET /deployments/:id/impact') },
    },
    async (request) =>
      readAs(reads, request, async (tx) => {
        const row = await deploymentRow(tx, request.params.id);
        if (!row) throw new ApiError('NOT_FOUND', `no deployment ${request.params.id}`);
        return deploymentImpact(tx, { id: row.id, agent: row.agent, version: row.version, deployedAt: row.deployed_at }, request.query.windowMinutes * 60_000);
      }),
  );
}
