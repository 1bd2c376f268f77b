import type { Queryable } from '@earshot/db';
import { hashApiKey, parseApiKey } from './api-key';
import type { SecretBox } from './secret-box';
import { lookupApiKey, type AuthenticatedKey, type KeyLookup } from './tenants';

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
    const found = await this.identify(presented, now);
    return found.ok ? found.key : undefined;
  }

  /** The caller of a key, or why it names none (malformed, unknown, revoked, expired). */
  async identify(presented: string, now: Date): Promise<KeyLookup> {
    if (!parseApiKey(presented)) return { ok: false, reason: 'malformed' };
    const cached = this.entries.get(cacheKey(presented));
    if (cached && cached.until > now.getTime()) {
      const { expiresAt } = cached.key;
      return expiresAt !== null && expiresAt <= now ? { ok: false, reason: 'expired' } : { ok: true, key: cached.key };
    }
    return this.lookup(presented, now);
  }

  /** Looks the key up again, bypassing what is kept. */
  async refresh(presented: string, now: Date): Promise<AuthenticatedKey | undefined> {
    const found = await this.lookup(presented, now);
    return found.ok ? found.key : undefined;
  }

  private async lookup(presented: string, now: Date): Promise<KeyLookup> {
    const id = cacheKey(presented);
    const found = await lookupApiKey(this.db, this.box, presented, now);
    this.entries.delete(id);
    if (!found.ok) return found;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value ?? '');
    this.entries.set(id, { key: found.key, until: now.getTime() + this.ttlMs });
    return found;
  }
}

function cacheKey(presented: string): string {
  return hashApiKey(presented).toString('base64');
}
