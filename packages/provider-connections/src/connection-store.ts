import { randomUUID } from 'node:crypto';
import type { SecretBox } from '@earshot/auth';
import type { EventMapping, ProviderName } from '@earshot/contracts';
import { inTenant, sql, type ConnectionPool, type SQLQuery } from '@earshot/db';
import { noteConnectionChange } from './connection-changes';

/** A connection as stored, but for its sealed credentials. */
export interface ConnectionRecord {
  id: string;
  tenantId: string;
  provider: ProviderName;
  name: string;
  status: 'active' | 'disabled';
  mapping: EventMapping | null;
  createdAt: string;
  updatedAt: string;
  credentialsRotatedAt: string | null;
  previousCredentialsValidUntil: string | null;
}

interface Row {
  id: string;
  tenant_id: string;
  provider: ProviderName;
  name: string;
  status: 'active' | 'disabled';
  mapping: EventMapping | null;
  created_at: Date;
  updated_at: Date;
  credentials_rotated_at: Date | null;
  previous_credentials_expire_at: Date | null;
}

const COLUMNS = sql`id, tenant_id, provider, name, status, mapping, created_at, updated_at, credentials_rotated_at, previous_credentials_expire_at`;

function recordOf(row: Row): ConnectionRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    provider: row.provider,
    name: row.name,
    status: row.status,
    mapping: row.mapping,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    credentialsRotatedAt: row.credentials_rotated_at?.toISOString() ?? null,
    previousCredentialsValidUntil: row.previous_credentials_expire_at?.toISOString() ?? null,
  };
}

export interface NewConnection {
  tenantId: string;
  provider: ProviderName;
  name: string;
  /** The provider's credentials as its schema reads them; sealed as JSON. */
  credentials: object;
  mapping: EventMapping | null;
}

export async function createConnection(db: ConnectionPool, box: SecretBox, input: NewConnection, at: Date): Promise<ConnectionRecord> {
  const id = randomUUID();
  const mapping = input.mapping === null ? null : JSON.stringify(input.mapping);
  const [row] = (await inTenant(db, input.tenantId, (tx) =>
    tx.query(sql`
      insert into provider_connections (tenant_id, id, provider, name, credentials, mapping, created_at, updated_at)
      values (${input.tenantId}, ${id}, ${input.provider}, ${input.name}, ${box.seal(JSON.stringify(input.credentials))}, ${mapping}::jsonb, ${at}, ${at})
      returning ${COLUMNS}`),
  )) as Row[];
  if (!row) throw new Error(`connection ${id} was not stored`);
  return recordOf(row);
}

export interface ConnectionFilter {
  provider?: ProviderName;
  status?: 'active' | 'disabled';
  after?: { createdAt: string; id: string };
  offset?: number;
  limit: number;
}

/** The tenant's connections, newest first. */
export async function listConnections(db: ConnectionPool, tenantId: string, filter: ConnectionFilter): Promise<ConnectionRecord[]> {
  const conditions: SQLQuery[] = [
    filter.provider === undefined ? sql`true` : sql`provider = ${filter.provider}`,
    filter.status === undefined ? sql`true` : sql`status = ${filter.status}`,
    filter.after === undefined ? sql`true` : sql`(created_at, id) < (${filter.after.createdAt}::timestamptz, ${filter.after.id}::uuid)`,
  ];
  const rows = (await inTenant(db, tenantId, (tx) =>
    tx.query(sql`
      select ${COLUMNS} from provider_connections where ${sql.join(conditions, ' AND ')}
       order by created_at desc, id desc limit ${filter.limit} offset ${filter.offset ?? 0}`),
  )) as Row[];
  return rows.map(recordOf);
}

export async function getConnection(db: ConnectionPool, tenantId: string, id: string): Promise<ConnectionRecord | undefined> {
  const [row] = (await inTenant(db, tenantId, (tx) => tx.query(sql`select ${COLUMNS} from provider_connections where id = ${id}`))) as Row[];
  return row && recordOf(row);
}

/**
 * New credentials; the current ones keep verifying until `previousValidUntil`
 * (a previous set still in its overlap stops now, so two verify at most).
 */
export async function rotateConnectionCredentials(
  db: ConnectionPool,
  box: SecretBox,
  tenantId: string,
  id: string,
  credentials: object,
  previousValidUntil: Date,
  at: Date,
): Promise<ConnectionRecord | undefined> {
  const [row] = (await inTenant(db, tenantId, (tx) =>
    tx.query(sql`
      update provider_connections
         set previous_credentials = credentials, previous_credentials_expire_at = ${previousValidUntil},
             credentials = ${box.seal(JSON.stringify(credentials))}, credentials_rotated_at = ${at}, updated_at = ${at}
       where id = ${id}
      returning ${COLUMNS}`),
  )) as Row[];
  noteConnectionChange();
  return row && recordOf(row);
}

export async function setConnectionStatus(
  db: ConnectionPool,
  tenantId: string,
  id: string,
  status: 'active' | 'disabled',
  at: Date,
): Promise<ConnectionRecord | undefined> {
  const [row] = (await inTenant(db, tenantId, (tx) =>
    tx.query(sql`update provider_connections set status = ${status}, updated_at = ${at} where id = ${id} returning ${COLUMNS}`),
  )) as Row[];
  noteConnectionChange();
  return row && recordOf(row);
}

export async function deleteConnection(db: ConnectionPool, tenantId: string, id: string): Promise<ConnectionRecord | undefined> {
  const [row] = (await inTenant(db, tenantId, (tx) => tx.query(sql`delete from provider_connections where id = ${id} returning ${COLUMNS}`))) as Row[];
  noteConnectionChange();
  return row && recordOf(row);
}
