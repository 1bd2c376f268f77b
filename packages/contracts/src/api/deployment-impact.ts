import { z } from 'zod';

export const DeploymentImpactQuerySchema = z.object({
  windowMinutes: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(60)
    .describe('length of each window, before and after the deployment'),
});

const side = z.object({ value: z.number().nullable(), samples: z.number().int() });

/** One metric before and after: the change, and whether it is more than chance (two-sided test at 5%). */
export const ImpactMetricSchema = z.object({
  metric: z.string(),
  unit: z.string(),
  before: side,
  after: side,
  change: z.number().nullable(),
  changePercent: z.number().nullable(),
  test: z.enum(['mann-whitney', 'two-proportion-z']),
  pValue: z.number().nullable(),
  significant: z.boolean(),
  /** Worse for the callers: slower, fewer successes, lower quality. */
  regression: z.boolean(),
});

export const DeploymentImpactSchema = z.object({
  ok: z.literal(true),
  deployment: z.object({ id: z.string(), agent: z.string(), version: z.string(), deployedAt: z.string() }),
  before: z.object({ from: z.string(), to: z.string() }),
  after: z.object({ from: z.string(), to: z.string() }),
  metrics: z.array(ImpactMetricSchema),
  outcomes: z.array(z.object({ type: z.string(), before: z.number().int(), after: z.number().int() })),
});
export type DeploymentImpact = z.infer<typeof DeploymentImpactSchema>;
export type ImpactMetric = z.infer<typeof ImpactMetricSchema>;
