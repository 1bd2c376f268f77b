import type { Queryable } from '@earshot/db';
import { hashApiKey, parseApiKey } from './api-key';
import type { SecretBox } from './secret-box';
import { authenticateApiKey, type AuthenticatedKey } from './tenants';

/**
 * Keeps authenticated keys for a few seconds, so a busy sender costs one
 * lookup per interval rather than one per request. Only keys that were found
 * are kept: a malformed or unknown key always goes to the checksum and the
 * database. A revoked key keeps working for at most `ttlMs`; a rotated
 * secret is picked up at once through `refresh` on a signature mismatch.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { key: AuthenticatedKey; until: number }>();

  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async authenticate(presented: string, now: Date): Promise<AuthenticatedKey | undefined> {
    if (!parseApiKey(presented)) return undefined;
    const cached = this.entries.get(cacheKey(presented));
    if (cached && cached.until > now.getTime()) return cached.key;
    return this.refresh(presented, now);
  }

  /** Looks the key up again, bypassing what is kept. */
  async refresh(presented: string, now: Date): Promise<AuthenticatedKey | undefined> {
    const id = cacheKey(presented);
    const key = await authenticateApiKey(this.db, this.box, presented, now);
    this.entries.delete(id);
    if (!key) return undefined;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value ?? '');
    this.entries.set(id, { key, until: now.getTime() + this.ttlMs });
    return key;
  }
}

function cacheKey(presented: string): string {
  return hashApiKey(presented).toString('base64');
}
