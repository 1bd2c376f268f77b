import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@earshot/log';
import { readTopic, recordFigure, startEarshot, type EarshotTenant, type TestEarshot } from '@earshot/testing';

interface WriteOperation {
  method: string;
  path: string;
}

/** Text that broke PostgreSQL, Avro or the runtime once, beside ordinary text. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfff', '😀', ' ', '', '%00', "'; drop table calls; --", 'é'.repeat(300)),
  fc.string({ maxLength: 20 }).map((text) => `${text}\u0000${text}`),
);
const hostileNumber = fc.oneof(fc.double(), fc.constantFrom(-1e308, 1e308, -0, 2 ** 53 + 1, -(2 ** 31) - 1, 5e-324));
const hostileValue = fc.oneof(hostileText, hostileNumber, fc.integer(), fc.boolean(), fc.constant(null));
/** JSON nested `depth` levels, as text: the body is sent as text, so nothing on this side recurses. */
const deep = fc.integer({ min: 30, max: 3_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
const bodies = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.dictionary(hostileText, hostileValue, { maxKeys: 8 }).map((value) => JSON.stringify(value)),
  fc
    .record({ callId: hostileText, type: hostileText, value: hostileText, revenueUsd: hostileNumber, name: hostileText, id: hostileText })
    .chain((record) =>
      fc.subarray(Object.keys(record)).map((keys) => JSON.stringify(Object.fromEntries(keys.map((key) => [key, record[key as keyof typeof record]])))),
    ),
  deep,
);

/** A path segment for any text; a lone surrogate, which has no UTF-8, is sent as its would-be bytes (%ED%A0%80), invalid UTF-8 for the server to refuse. */
function pathSegment(text: string): string {
  let segment = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    segment +=
      char.length === 1 && code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')
        : encodeURIComponent(char);
  }
  return segment || 'x';
}

/**
 * Promise 20 of issue #20 over every write route of the live OpenAPI
 * document: an attacker tenant sends generated hostile requests while a
 * victim tenant writes beside it. The attacker never gets a 5xx, the victim
 * never fails, and no refused request leaves an event behind.
 */
describe('generated writes of one tenant beside another’s', () => {
  let earshot: TestEarshot;
  let victim: EarshotTenant;
  let attacker: EarshotTenant;
  let operations: WriteOperation[];

  beforeAll(async () => {
    earshot = await startEarshot('generated-writes');
    victim = await earshot.createTenant('Victim');
    attacker = await earshot.createTenant('Attacker');
    const document = (await (await fetch(`${earshot.origin}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
        // Signed ingest is fuzzed with its HMAC in the gateway's suite; operator routes take the operator token.
        .filter(() => !/^\/api\/v1\/(webhooks|admin)\//.test(path))
        .map((method) => ({ method: method.toUpperCase(), path })),
    );
  }, 120_000);
  afterAll(async () => earshot?.stop());

  const call = (tenant: EarshotTenant, method: string, path: string, body?: string, idempotencyKey?: string) =>
    fetch(`${earshot.origin}${path}`, {
      method,
      body,
      headers: {
        authorization: `Bearer ${tenant.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      },
    });

  it('answers every generated write below 500, fails none of the victim’s writes, and appends nothing for a refused one', async ({ task }) => {
    expect(operations.length).toBeGreaterThan(5);
    const answered = new Map<number, number>();
    let attackerAccepted = 0;
    let victimWrites = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        bodies,
        hostileText,
        fc.option(hostileText, { nil: undefined }),
        async (operation, body, parameter, idempotencyKey) => {
          const path = operation.path.replace(/\{[^}]+\}/g, () => pathSegment(parameter));
          const sent = operation.method === 'DELETE' ? undefined : body;
          // A header cannot carry a NUL or a code point beyond Latin-1 (fetch refuses it); those are sent in the body instead.
          const key = idempotencyKey !== undefined && /^[\x20-\x7e]+$/.test(idempotencyKey) ? idempotencyKey : undefined;
          victimWrites++;
          const [attack, own] = await Promise.all([
            call(attacker, operation.method, path, sent, key),
            call(
              victim,
              'POST',
              '/api/v1/outcomes',
              JSON.stringify({ callId: `call-${victimWrites}`, type: 'booking', revenueUsd: 12.5 }),
              `victim-${victimWrites}`,
            ),
          ]);
          answered.set(attack.status, (answered.get(attack.status) ?? 0) + 1);
          if (attack.status < 300) attackerAccepted++;
          expect(attack.status, `${operation.method} ${path}: ${await attack.text()}`).toBeLessThan(500);
          expect(own.status, await own.text()).toBe(201);
        },
      ),
      { numRuns: 150, seed: 20 },
    );
    const appended = (await readTopic(earshot.runtime.log(), TOPICS.events)).filter((record) => record.headers.tenant === attacker.id).length;
    expect(appended).toBeLessThanOrEqual(attackerAccepted);
    const statuses = [...answered].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
    recordFigure(task, `150 generated writes over ${operations.length} write routes: ${statuses.join(' ')}; 0 of ${victimWrites} victim writes failed`);
  }, 600_000);
});
