import type { SecretBox } from '@earshot/auth';
import type { EventMapping, ProviderName } from '@earshot/contracts';
import { sql, TENANT_ROLE, type ConnectionPool } from '@earshot/db';
import { connectionGeneration } from './connection-changes';

/** The setting the delivery policy of provider_connections reads: the one connection a provider's request names. */
const CONNECTION_SETTING = 'earshot.provider_connection_id';

/** What a provider's request needs of its connection: whose it is, whether it takes deliveries, and what verifies them. */
export interface DeliveryConnection {
  id: string;
  tenantId: string;
  provider: ProviderName;
  name: string;
  /** Disabled, or its tenant suspended: deliveries are refused. */
  active: boolean;
  mapping: EventMapping | null;
  /** The current credentials, and the previous ones while their overlap lasts. */
  credentials: readonly unknown[];
  /** When the previous credentials stop verifying. */
  previousUntil: Date | null;
}

interface Row {
  id: string;
  tenant_id: string;
  provider: ProviderName;
  name: string;
  status: string;
  tenant_status: string;
  mapping: EventMapping | null;
  credentials: Buffer;
  previous_credentials: Buffer | null;
  previous_credentials_expire_at: Date | null;
}

/**
 * The connection a provider's request names, read as the tenant role with
 * only that connection visible (row-level security's delivery policy): the
 * id picks the tenant, nothing else is readable.
 */
export async function findDeliveryConnection(db: ConnectionPool, box: SecretBox, id: string, now: Date): Promise<DeliveryConnection | undefined> {
  const [row] = (await db.tx(async (tx) => {
    await tx.query(sql`select set_config('role', ${TENANT_ROLE}, true), set_config(${CONNECTION_SETTING}, ${id}, true)`);
    return tx.query(sql`
      select c.id, c.tenant_id, c.provider, c.name, c.status, t.status as tenant_status, c.mapping, c.credentials, c.previous_credentials, c.previous_credentials_expire_at
        from provider_connections c join tenants t on t.id = c.tenant_id
       where c.id = ${id}`);
  })) as Row[];
  if (!row) return undefined;
  const previousValid = row.previous_credentials !== null && row.previous_credentials_expire_at !== null && row.previous_credentials_expire_at > now;
  const open = (sealed: Buffer) => JSON.parse(box.open(sealed)) as unknown;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    provider: row.provider,
    name: row.name,
    active: row.status === 'active' && row.tenant_status === 'active',
    mapping: row.mapping,
    credentials: previousValid && row.previous_credentials ? [open(row.credentials), open(row.previous_credentials)] : [open(row.credentials)],
    previousUntil: previousValid ? row.previous_credentials_expire_at : null,
  };
}

interface Kept {
  connection: DeliveryConnection | undefined;
  until: number;
  generation: number;
}

/**
 * Keeps connections a few seconds, so a provider sending a thousand
 * webhooks a second costs one lookup per interval; an unknown id is kept
 * too (as absent), so made-up ids cost no more. A change made in this
 * process applies here at once; one made elsewhere within `ttlMs`; a
 * rotated credential at once everywhere, since a failed verification looks
 * the connection up again (`refresh`).
 */
export class ConnectionCache {
  private readonly entries = new Map<string, Kept>();

  constructor(
    private readonly db: ConnectionPool,
    private readonly box: SecretBox,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  async find(id: string, now: Date): Promise<DeliveryConnection | undefined> {
    const kept = this.entries.get(id);
    if (kept && kept.until > now.getTime() && kept.generation === connectionGeneration()) return kept.connection;
    return this.refresh(id, now);
  }

  async refresh(id: string, now: Date): Promise<DeliveryConnection | undefined> {
    const generation = connectionGeneration();
    const connection = await findDeliveryConnection(this.db, this.box, id, now);
    const until = Math.min(now.getTime() + this.ttlMs, connection?.previousUntil?.getTime() ?? Number.POSITIVE_INFINITY);
    this.entries.delete(id);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value ?? '');
    this.entries.set(id, { connection, until, generation });
    return connection;
  }
}
