import pg from 'pg';

export const APPEND_CHANNEL = 'earshot_log_append';

/**
 * Wakes pollers when anything is appended (LISTEN/NOTIFY), so readers see a
 * record within milliseconds without polling hard. Pollers still poll now and
 * then, so a missed notification only delays, never loses.
 */
export class Wakeup {
  private waiters = new Set<() => void>();

  private constructor(private readonly client: pg.Client) {
    client.on('notification', () => this.wakeAll());
    client.on('error', () => this.wakeAll());
  }

  static async listen(url: string): Promise<Wakeup> {
    const client = new pg.Client({ connectionString: url, application_name: 'earshot-log-listen' });
    await client.connect();
    await client.query(`listen ${APPEND_CHANNEL}`);
    return new Wakeup(client);
  }

  /** Resolves on the next append, or after `ms`, whichever comes first. */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  wakeAll(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  async close(): Promise<void> {
    this.wakeAll();
    await this.client.end();
  }
}
