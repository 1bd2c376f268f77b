/** A test that keeps a promise: its file, from the repository's root, and its title as `it` names it. */
interface KeptBy {
  file: string;
  title: string;
}

/**
 * One promise of issue #20 and the tests that keep it. `gap` says what the
 * tests do not yet show; a row with a gap is never PASS, whatever its tests do.
 */
export interface ReliabilityPromise {
  promise: string;
  keptBy: readonly KeptBy[];
  gap?: string;
}

const INGEST = 'services/gateway/src/ingest.int.test.ts';
const WEBHOOKS = 'services/gateway/src/webhooks.int.test.ts';
const OUTCOMES = 'services/query/src/routes/outcomes.int.test.ts';
const TENANT_SCOPE = 'packages/db/src/tenant-scope.int.test.ts';
const CREDENTIALS = 'test/credentials-two-processes.int.test.ts';
const HOSTILE = 'test/reliability/hostile-input.int.test.ts';
const LOG_SAFETY = 'packages/log/src/kafka/log-safety.int.test.ts';

/** The table `npm run reliability` prints, in the order; the suite calls the tests that exist rather than repeating them. */
export const PROMISES: readonly ReliabilityPromise[] = [
  {
    promise: 'one byte changed → 401, nothing appended',
    keptBy: [{ file: INGEST, title: 'refuses a body with one byte changed after signing (401) and appends nothing' }],
  },
  {
    promise: 'timestamp ±301 s → 401, 299 s → accepted',
    keptBy: [{ file: INGEST, title: 'refuses a timestamp 301 s off either way and accepts 299 s off' }],
  },
  {
    promise: 'both secrets verify during a rotation',
    keptBy: [{ file: WEBHOOKS, title: 'verifies both secrets during a rotation, and only the new one after the overlap' }],
  },
  {
    promise: 'a re-serialized body fails',
    keptBy: [{ file: INGEST, title: 'refuses a re-serialized body: the signature covers the bytes, not the JSON value' }],
  },
  {
    promise: 'the same idempotency key 48 h later → one event',
    keptBy: [{ file: INGEST, title: 'gives a retry 48 hours later, freshly signed, the same answer and appends nothing' }],
  },
  {
    promise: '50 concurrent copies → one effect',
    keptBy: [
      { file: INGEST, title: 'answers 50 concurrent copies with one append, the others marked duplicate with the same id' },
      { file: 'test/gateway-processes.int.test.ts', title: 'appends 50 concurrent copies sent to all three processes exactly once' },
    ],
  },
  {
    promise: 'broker stopped → non-2xx, nothing acknowledged lost once back',
    keptBy: [
      {
        file: 'services/gateway/src/log-outage.int.test.ts',
        title: 'answers 503 with Kafka stopped, acknowledging nothing, and accepts again by itself once Kafka is back',
      },
    ],
  },
  {
    promise: 'Idempotency-Key 400/422/409 rules, per tenant',
    keptBy: [
      { file: OUTCOMES, title: 'replays the first answer for the same Idempotency-Key and body, appending nothing more' },
      {
        file: OUTCOMES,
        title: 'answers 409 IDEMPOTENCY_MISMATCH for the same key with another body (the status the spec gives a duplicate key), and keys are per tenant',
      },
      { file: OUTCOMES, title: 'answers 409 IDEMPOTENCY_CONFLICT while the first request with the key is still in flight' },
      { file: INGEST, title: 'keeps idempotency keys per tenant: the same key from another tenant is a new event' },
      {
        file: 'test/reliability/shared-fate.int.test.ts',
        title: 'fails none of the victim’s requests in 12 rounds of 6 beside 2 with a NUL in idempotency_key',
      },
    ],
  },
  {
    promise: 'projector SIGKILLed at 50 random points → read models equal a clean replay',
    keptBy: [{ file: 'services/projector/src/projector.kill.int.test.ts', title: 'ends, after restarts, with exactly the rows of a run without kills' }],
  },
  {
    promise: 'a second projector joins and leaves → no loss, no double count',
    keptBy: [{ file: 'services/projector/src/projector.rebalance.int.test.ts', title: 'loses and doubles nothing while a second projector joins and leaves' }],
  },
  {
    promise: 'broker restarted during sends → no duplicate events',
    keptBy: [
      {
        file: 'services/gateway/src/log-outage.int.test.ts',
        title: 'keeps every key once through a broker restart during sends: no duplicate event, none lost',
      },
    ],
  },
  {
    promise: 'startup refuses a broker or topic with unsafe settings',
    keptBy: [
      { file: 'packages/log/src/kafka/log-safety.unit.test.ts', title: 'names each unsafe setting and how to fix it' },
      { file: LOG_SAFETY, title: 'starts on the test broker with the topics it makes, which carry the safe settings' },
      { file: LOG_SAFETY, title: 'refuses an events topic with cleanup.policy=compact, naming the setting and the fix' },
      { file: LOG_SAFETY, title: 'refuses a topic that lets an out-of-sync replica lead' },
      { file: LOG_SAFETY, title: 'refuses topics below the configured min.insync.replicas and replication factor' },
    ],
  },
  {
    promise: 'no table without forced RLS; the app role cannot bypass it',
    keptBy: [
      {
        file: 'test/reliability/database-catalog.int.test.ts',
        title: 'forces row-level security on every table with a tenant_id, for roles that cannot bypass it',
      },
    ],
  },
  {
    promise: 'tenant B invisible on every table and route, WITH CHECK on writes',
    keptBy: [
      {
        file: 'services/projector/src/projector.int.test.ts',
        title: 'shows a tenant only its own rows in every table, and a transaction with no tenant nothing',
      },
      { file: TENANT_SCOPE, title: 'refuses a tenant writing a row for another tenant' },
      { file: 'services/query/src/graphql/graphql.int.test.ts', title: 'keeps tenants apart: another tenant’s call is absent and its calls are not listed' },
      { file: OUTCOMES, title: 'shows each tenant only its own outcomes, whatever callId is asked for' },
    ],
  },
  {
    promise: 'a pooled connection without a tenant sees 0 rows',
    keptBy: [
      { file: TENANT_SCOPE, title: 'shows a tenant only its own rows, and a transaction with no tenant nothing' },
      { file: TENANT_SCOPE, title: 'does not leak the tenant to the next transaction on the same connection' },
    ],
  },
  {
    promise: 'no view without security_invoker, no SECURITY DEFINER without search_path',
    keptBy: [
      {
        file: 'test/reliability/database-catalog.int.test.ts',
        title: 'has no view without security_invoker and no SECURITY DEFINER function without a search_path',
      },
    ],
  },
  {
    promise: 'rate limits hold across 3 processes with 429 and Retry-After',
    keptBy: [
      { file: 'test/gateway-processes.int.test.ts', title: 'shares the per-tenant limit: what two processes admitted counts in the third' },
      { file: WEBHOOKS, title: 'answers 429 with Retry-After and RateLimit headers past the per-tenant request limit' },
    ],
  },
  {
    promise: 'no plaintext key or secret stored; a revoked key refused within 1 s everywhere',
    keptBy: [
      { file: CREDENTIALS, title: 'leaves no key or secret it showed anywhere in the database' },
      { file: CREDENTIALS, title: 'revokes a key in one process; the other, which keeps the key, refuses it within a second' },
    ],
  },
  {
    promise: 'every /{id} route answers 404 for another tenant’s id (BOLA)',
    keptBy: [
      {
        file: 'test/reliability/bola.int.test.ts',
        title: 'answers 404 to tenant B for tenant A’s id on every /{id} route of the OpenAPI document, and A finds each unchanged',
      },
      { file: 'services/query/src/routes/calls.int.test.ts', title: 'answers 404 for another tenant’s call, a guessed id and a malformed id, never its row' },
      {
        file: 'services/query/src/routes/incident-changes.int.test.ts',
        title: 'answers 404 for another tenant’s incident or none, 400 for an empty or unknown change, 403 without incidents:write',
      },
    ],
  },
  {
    promise: 'hostile inputs and generated bodies: never 5xx, never cross-tenant, nothing half-written',
    keptBy: [
      { file: HOSTILE, title: 'answers a batch with a 5,000-deep item per envelope: the valid ones kept, the deep one dead-lettered, no 500' },
      { file: HOSTILE, title: 'refuses a NUL in provider_call_id with 400 naming it, dead-lettered, instead of 202 and a stopped projector' },
      { file: HOSTILE, title: 'cuts a body that stalls off with 408 within the configured request timeout (it was held open past 420 s)' },
      {
        file: 'test/reliability/shared-fate.int.test.ts',
        title: 'fails none of the victim’s requests in 12 rounds of 6 beside 2 with a NUL in idempotency_key',
      },
      {
        file: 'services/gateway/src/ingest-fuzz.int.test.ts',
        title:
          'POST /webhooks/ingest answers every signed body 202 or 400 in the Error shape, and every envelope it names is in the events topic or the dead letters',
      },
      {
        file: 'test/reliability/generated-writes.int.test.ts',
        title: 'answers every generated write below 500, fails none of the victim’s writes, and appends nothing for a refused one',
      },
      { file: 'services/developer/src/openapi/contract.int.test.ts', title: 'finds nothing: no 5xx, every answer as documented, invalid input refused' },
    ],
  },
];
