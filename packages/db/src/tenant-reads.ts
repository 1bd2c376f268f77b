import { createHash } from 'node:crypto';
import pg from 'pg';
import type { SQLQuery } from '@databases/pg';
import { fallbackLogger, type Logger } from '@earshot/telemetry';
import { TENANT_ROLE, TENANT_SETTING } from './tenant-scope';

const INT8 = 20;

/** Sets role and tenant for the transaction: the same statement inTenant runs. */
const SCOPE = `select set_config('role', $1, true), set_config($2, $3, true)`;
const SCOPE_NAME = 'earshot_tenant_scope';

/** Statements a connection keeps prepared at most; others are planned every time they run. */
const MAX_PREPARED = 200;

/** SQLQuery's placeholders as pg numbers them, identifiers quoted as pg quotes them. */
const PG_FORMAT = {
  escapeIdentifier: (name: string) => pg.escapeIdentifier(name),
  formatValue: (value: unknown, index: number) => ({ placeholder: `$${index + 1}`, value }),
};

/** What a read needs of a database: statements in, rows out. A transaction is one; so is a tenant's TenantReads. */
export interface Statements {
  query(statement: SQLQuery): Promise<unknown[]>;
}

export interface TenantReadsOptions {
  url: string;
  poolSize?: number;
  applicationName: string;
  /** Where a failed idle connection is reported. */
  logger?: Logger;
}

/**
 * One-statement reads as a tenant in one round trip, where inTenant takes
 * four (BEGIN, the scope, the statement, COMMIT): the scope and the
 * statement are pipelined in the extended protocol before a single Sync, and
 * Postgres runs everything up to a Sync as one implicit transaction. The
 * scope runs first, so the statement is parsed, planned and run as the
 * tenant role with row-level security on, and `set_config(…, true)` ends
 * with that transaction: nothing reaches the next user of the connection.
 * On a machine where every socket write wakes another core, round trips are
 * most of what a read costs. Statements are prepared on each connection (up
 * to MAX_PREPARED texts), so each is parsed and planned there once; only the
 * tenant role ever runs them, so a cached plan is never another role's.
 */
export class TenantReads {
  private readonly pool: pg.Pool;
  /** The statement texts each connection has prepared, with their names: a name is hashed from its text once per connection, not per read. */
  private readonly prepared = new WeakMap<pg.PoolClient, Map<string, string>>();

  constructor(options: TenantReadsOptions) {
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      application_name: options.applicationName,
      // Stop a statement that hangs rather than a request that waits forever.
      statement_timeout: 30_000,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      // Rows as the ConnectionPool gives them (its bigIntMode 'number'), so a statement reads the same either way.
      types: {
        getTypeParser: (oid: number, format?: 'text' | 'binary') =>
          oid === INT8 && format !== 'binary'
            ? (value: string) => Number.parseInt(value, 10)
            : (pg.types.getTypeParser(oid, format) as (value: string) => unknown),
      },
    });
    const logger = options.logger ?? fallbackLogger();
    this.pool.on('error', (error) => logger.error({ err: error, pool: options.applicationName }, 'idle database connection failed'));
  }

  /** The rows of `statement`, run as `tenantId`. */
  async read<Row>(tenantId: string, statement: SQLQuery): Promise<Row[]> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const { text, values } = statement.format(PG_FORMAT);
      const prepared = await this.preparedOn(client);
      let name = prepared.get(text);
      if (name === undefined && prepared.size < MAX_PREPARED) {
        name = `earshot_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
        prepared.set(text, name);
      }
      return await new Promise<Row[]>((resolve, reject) => {
        client.query(scopedQuery(tenantId, { name, text, values }, (error, results) => (error ? reject(error) : resolve(rowsOfLast<Row>(results)))));
      });
    } catch (error) {
      // A failed statement leaves the connection usable (Sync ended its transaction); a failed connection does not.
      if (!(error instanceof pg.DatabaseError)) broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /**
   * The texts prepared on a connection. Its first use prepares the scope by
   * itself (run with no tenant: a transaction of its own that sets nothing
   * beyond it), so no pipeline parses two statements: pg's client takes any
   * ParseComplete as its query's.
   */
  private async preparedOn(client: pg.PoolClient): Promise<Map<string, string>> {
    const known = this.prepared.get(client);
    if (known) return known;
    await client.query({ name: SCOPE_NAME, text: SCOPE, values: [TENANT_ROLE, TENANT_SETTING, ''] });
    const prepared = new Map<string, string>();
    this.prepared.set(client, prepared);
    return prepared;
  }

  /** Statements run as `tenantId`, each its own transaction of one round trip. */
  as(tenantId: string): Statements {
    return { query: (statement) => this.read(tenantId, statement) };
  }

  async dispose(): Promise<void> {
    await this.pool.end();
  }
}

/** pg answers a query of several results with an array of them, which its typings do not say. */
type Done = (error: Error | undefined, results: unknown) => void;

function scopedQuery(tenantId: string, statement: { name: string | undefined; text: string; values: unknown[] }, done: Done): pg.Query {
  // Extended even without values: a simple-protocol Query message would end the pipeline's transaction early.
  const config: pg.QueryConfig & { queryMode: 'extended' } = { ...statement, queryMode: 'extended' };
  const query = new pg.Query(config, done);
  const submit = query.submit.bind(query);
  // The scope's row and the statement's come back as two results of this one query (pg's multi-result handling).
  query.submit = (connection) => {
    connection.stream.cork();
    try {
      connection.bind({ statement: SCOPE_NAME, values: [TENANT_ROLE, TENANT_SETTING, tenantId] }, true);
      connection.describe({ type: 'P', name: '' }, true);
      connection.execute({ portal: '' }, true);
      submit(connection);
    } finally {
      connection.stream.uncork();
    }
  };
  return query;
}

function rowsOfLast<Row>(results: unknown): Row[] {
  const last: unknown = Array.isArray(results) ? results[results.length - 1] : results;
  return ((last as pg.QueryResult | undefined)?.rows ?? []) as Row[];
}
