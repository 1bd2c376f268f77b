import pg from 'pg';

const SAMPLE_MS = 20;

/**
 * How long a database's connections waited on locks while something ran: pg_stat_activity sampled every 20 ms on a
 * connection of its own, each sample's waiting connections weighed by the time since the last. What batches spent
 * waiting on rows other batches held until they committed (a tenant's counters, before they were sharded).
 */
export async function sampleLockWaits(url: string): Promise<{ stop(): Promise<number> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let waitingMs = 0;
  let running = true;
  const sampling = (async () => {
    for (let last = performance.now(); running; await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS))) {
      const { rows } = await client.query<{ waiting: number }>(
        `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      const now = performance.now();
      waitingMs += (rows[0]?.waiting ?? 0) * (now - last);
      last = now;
    }
  })();
  return {
    /** Connection-seconds spent waiting since the start. */
    async stop() {
      running = false;
      await sampling;
      await client.end();
      return waitingMs / 1_000;
    },
  };
}
