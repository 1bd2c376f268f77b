import type { FastifyInstance } from 'fastify';

export const HEALTH_ROUTES = ['/health', '/api/v1/health'] as const;

export interface DependencyHealth {
  connected: boolean;
  latencyMs: number;
}

export type HealthCheck = () => Promise<DependencyHealth>;

/**
 * `/health` over whatever this process runs: each module adds the
 * dependencies it needs; 503 with an Error-shaped body names what is down.
 */
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>();

  add(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  /** Runs every check: 200 with each dependency, or 503 in the Error shape naming what is down. */
  async report(service: string): Promise<HealthReport> {
    const results = Object.fromEntries(await Promise.all([...this.checks].map(async ([name, check]) => [name, await timed(check)] as const)));
    const down = Object.entries(results)
      .filter(([, r]) => !r.connected)
      .map(([name]) => name);
    const database = results.database ?? { connected: false, latencyMs: 0 };
    if (down.length === 0) return { status: 200, body: { ok: true, service, ...results, database } };
    return { status: 503, body: { ok: false, error: `degraded: ${down.join(', ')} unreachable`, code: 'UNAVAILABLE', service, ...results, database } };
  }

  /** Both routes, on every process whatever its target: `/health` for probes, `/api/v1/health` under the API's base URL. */
  register(app: FastifyInstance, service: string): void {
    for (const url of HEALTH_ROUTES) {
      app.get(url, { config: { policy: { auth: 'public' } } }, async (_request, reply) => {
        const { status, body } = await this.report(service);
        return reply.status(status).send(body);
      });
    }
  }
}

export type HealthReport =
  | { status: 200; body: { ok: true; service: string; database: DependencyHealth; [dependency: string]: unknown } }
  | { status: 503; body: { ok: false; error: string; code: 'UNAVAILABLE'; service: string; database: DependencyHealth; [dependency: string]: unknown } };

async function timed(check: HealthCheck): Promise<DependencyHealth> {
  const started = performance.now();
  const timeout = new Promise<DependencyHealth>((resolve) =>
    setTimeout(() => resolve({ connected: false, latencyMs: Math.round(performance.now() - started) }), 2_000).unref(),
  );
  return Promise.race([check().catch(() => ({ connected: false, latencyMs: Math.round(performance.now() - started) })), timeout]);
}
