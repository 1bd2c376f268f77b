import { randomUUID } from 'node:crypto';
import { inPlatform, sql, type ConnectionPool } from '@earshot/db';
import { parseApiKey, SCOPES } from './api-key';
import type { SecretBox } from './secret-box';

export interface ProvisionedTenant {
  id: string;
  name: string;
  /** Must pass the key format and checksum (`parseApiKey`). */
  apiKey: string;
  webhookSecret: string;
}

/**
 * Makes a tenant with known credentials exist, whatever state it is in: the
 * tenant is created if missing, its webhook secret replaced if it differs, and
 * the key added (with every scope) if it is not already one of its keys.
 * Running it again changes nothing: the demonstration tenant uses it at every start.
 */
export async function provisionTenant(db: ConnectionPool, box: SecretBox, wanted: ProvisionedTenant): Promise<void> {
  const parsed = parseApiKey(wanted.apiKey);
  if (!parsed)
    throw new Error(
      'the API key is malformed or its checksum does not match: keys look like ear_live_… or ear_test_… (create one with `earshot tenant create`)',
    );
  // Whether the key is already another tenant's crosses tenants: the platform role's path.
  await inPlatform(db, async (tx) => {
    const [existing] = (await tx.query(sql`select webhook_secret from tenants where id = ${wanted.id} for update`)) as { webhook_secret: Buffer }[];
    if (!existing) {
      await tx.query(sql`insert into tenants (id, name, webhook_secret) values (${wanted.id}, ${wanted.name}, ${box.seal(wanted.webhookSecret)})`);
    } else if (box.open(existing.webhook_secret) !== wanted.webhookSecret) {
      await tx.query(sql`update tenants set webhook_secret = ${box.seal(wanted.webhookSecret)} where id = ${wanted.id}`);
    }
    const [owner] = (await tx.query(sql`select tenant_id from api_keys where key_hash = ${parsed.hash}`)) as { tenant_id: string }[];
    if (owner && owner.tenant_id !== wanted.id) throw new Error('the API key already belongs to another tenant');
    if (!owner) {
      await tx.query(sql`
        insert into api_keys (id, tenant_id, name, display_prefix, key_hash, scopes, environment)
        values (${randomUUID()}, ${wanted.id}, 'demo', ${wanted.apiKey.slice(0, 15)}, ${parsed.hash}, ${[...SCOPES]}, ${parsed.environment})`);
    }
  });
}
