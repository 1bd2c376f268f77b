import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '@earshot/contracts';
import { sampleEvent } from '@earshot/events/samples';
import { callScript } from '@earshot/testing';
import { projectEvent, type ProjectedEvent } from '../projected-event';
import { unpack } from '../registers';
import { READ_MODELS } from '../read-models';
import type { DocumentProjection } from '../projection';
import { callFactsOf, mergeCallFacts, type CallFacts } from './call-facts';
import { callStatus } from './call-status';
import { callRow } from './calls.projection';

const TENANT = '0b6f3a9e-1c2d-4e5f-8a7b-9c0d1e2f3a4b';
const ENDINGS = ['completed', 'failed', 'transferred', 'unanswered'] as const;

function fold(events: readonly ProjectedEvent[]): CallFacts | null {
  return events.reduce<CallFacts | null>((facts, e) => {
    const next = callFactsOf(e);
    if (!next) return facts;
    return facts ? mergeCallFacts(facts, next) : next;
  }, null);
}

/** A permutation of the events with some of them repeated. */
const shuffledWithRepeats = (events: readonly ProjectedEvent[]) =>
  fc
    .tuple(fc.shuffledSubarray([...events], { minLength: events.length, maxLength: events.length }), fc.array(fc.nat(events.length - 1), { maxLength: 20 }))
    .map(([order, repeats]) => [...order, ...repeats.map((i) => events[i]).filter((e): e is ProjectedEvent => e !== undefined)]);

describe('call state from events', () => {
  for (const [ending, turnsInParts] of ENDINGS.flatMap((e) => [[e, false] as const, [e, true] as const])) {
    const events = callScript({ tenant: TENANT, providerCallId: `c-${ending}`, turns: 6, ending, turnsInParts }).map(projectEvent);
    const expected = fold(events);

    it(`gives the same row for any order and repeats of a ${ending} call's events${turnsInParts ? ', its turns in parts' : ''}`, () => {
      fc.assert(
        fc.property(shuffledWithRepeats(events), (shuffled) => {
          expect(callRow(fold(shuffled) as CallFacts)).toEqual(callRow(expected as CallFacts));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('derives each status from the lifecycle events', () => {
    const status = (ending: (typeof ENDINGS)[number]) =>
      callStatus(fold(callScript({ tenant: TENANT, providerCallId: 'c', turns: 2, ending }).map(projectEvent)) as CallFacts);
    expect(ENDINGS.map(status)).toEqual(['completed', 'failed', 'escalated', 'abandoned']);
    const started = callScript({ tenant: TENANT, providerCallId: 'c', turns: 2 }).map(projectEvent).slice(0, 6);
    expect(callStatus(fold(started) as CallFacts)).toBe('in_progress');
  });

  it('stores each turn one report gave under one stamp, and reads turns stored a stamp a part as before', () => {
    const events = callScript({ tenant: TENANT, providerCallId: 'c', turns: 4 }).map(projectEvent);
    const whole = fold(events) as CallFacts;
    expect(Object.values(whole.turns).map((turn) => JSON.stringify(turn).match(/"at"/g)?.length)).toEqual([1, 1, 1, 1]);
    const half = fold(events.slice(0, events.length / 2)) as CallFacts;
    const storedAsBefore = { ...half, turns: Object.fromEntries(Object.entries(half.turns).map(([id, turn]) => [id, unpack(turn)])) };
    expect(callRow(mergeCallFacts(storedAsBefore, fold(events.slice(events.length / 2)) as CallFacts))).toEqual(callRow(whole));
  });

  it('takes per-call latency as the median of each part over the turns', () => {
    const events = callScript({ tenant: TENANT, providerCallId: 'c', turns: 4 }).map(projectEvent);
    const row = callRow(fold(events) as CallFacts);
    const totals = events.flatMap((e) => (e.event.type === 'agent.response.generated' ? [e.event.data.latency.total_ms ?? 0] : [])).sort((a, b) => a - b);
    expect(row.latency_total_ms).toBe(Math.round(((totals[1] ?? 0) + (totals[2] ?? 0)) / 2));
  });
});

describe('a call whose provider fell silent', () => {
  const ABANDON_AFTER_MS = 7_200_000;
  const silent = callScript({ tenant: TENANT, providerCallId: 'c-silent', turns: 4, ending: 'silent' });
  const lastAt = silent.reduce((max, e) => (e.occurred_at > max ? e.occurred_at : max), '');
  const after = (ms: number) => new Date(Date.parse(lastAt) + ms).toISOString();
  const abandoned = (since: string) =>
    sampleEvent('call.abandoned', {
      tenant: TENANT,
      provider: 'vapi',
      idempotency_key: `earshot:abandoned:c-silent:${since}`,
      occurred_at: new Date(Date.parse(since) + ABANDON_AFTER_MS).toISOString(),
      received_at: new Date(Date.parse(since) + ABANDON_AFTER_MS).toISOString(),
      call: { provider_call_id: 'c-silent', agent_id: 'agent_support', direction: null, from_number: null, to_number: null, customer_id: null, metadata: null },
      data: { silent_since: since, abandon_after_ms: ABANDON_AFTER_MS },
    });
  const late = (type: 'transcript.final' | 'call.ended', at: string) =>
    sampleEvent(type, {
      tenant: TENANT,
      idempotency_key: `c-silent:late:${type}:${at}`,
      occurred_at: at,
      received_at: at,
      call: { provider_call_id: 'c-silent', agent_id: 'agent_support' },
    });
  const rowOf = (events: readonly StoredEvent[]) => callRow(fold(events.map((e) => projectEvent(e))) as CallFacts);

  it('reads abandoned once Earshot declares it, ended when it fell silent, the same for any order and repeats', () => {
    const events = [...silent, abandoned(lastAt)].map((e) => projectEvent(e));
    const expected = callRow(fold(events) as CallFacts);
    expect(expected).toMatchObject({ status: 'abandoned', ended_at: lastAt, last_event_at: lastAt });
    expect(rowOf(silent)).toMatchObject({ status: 'in_progress', ended_at: null });
    fc.assert(
      fc.property(shuffledWithRepeats(events), (shuffled) => {
        expect(callRow(fold(shuffled) as CallFacts)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('takes a late event under the rules in force, whatever the order: one from before the silence changes nothing, one after revives the call, an end ends it', () => {
    const cases: [StoredEvent[], string][] = [
      [[late('transcript.final', after(-60_000))], 'abandoned'],
      [[late('transcript.final', after(60_000))], 'in_progress'],
      [[late('call.ended', after(ABANDON_AFTER_MS + 60_000))], 'completed'],
      // Revived, silent again, declared again: the later declaration decides.
      [[late('transcript.final', after(60_000)), abandoned(after(60_000))], 'abandoned'],
    ];
    for (const [extra, status] of cases) {
      const events = [...silent, abandoned(lastAt), ...extra].map((e) => projectEvent(e));
      const expected = callRow(fold(events) as CallFacts);
      expect(expected.status).toBe(status);
      fc.assert(
        fc.property(shuffledWithRepeats(events), (shuffled) => {
          expect(callRow(fold(shuffled) as CallFacts)).toEqual(expected);
        }),
        { numRuns: 150 },
      );
    }
  });
});

describe('every document read model merges like a set', () => {
  const events = ENDINGS.flatMap((ending) => [
    ...callScript({ tenant: TENANT, providerCallId: `c-${ending}`, turns: 3, ending, outcome: true }),
    ...callScript({ tenant: TENANT, providerCallId: `p-${ending}`, turns: 3, ending, turnsInParts: true }),
  ]).map(projectEvent);
  const documents = READ_MODELS.filter((p): p is DocumentProjection<unknown> => p.kind === 'document');

  for (const projection of documents) {
    it(`${projection.name}: merge is commutative, associative and idempotent on real facts`, () => {
      const facts = events.map((e) => projection.facts(e)).filter((f) => f !== null);
      const byKey = new Map<string, unknown[]>();
      for (const f of facts) byKey.set(JSON.stringify(f.key), [...(byKey.get(JSON.stringify(f.key)) ?? []), f.facts]);
      const groups = [...byKey.values()].filter((g) => g.length >= 1);
      if (groups.length === 0) return;
      fc.assert(
        fc.property(
          fc.constantFrom(...groups).chain((g) => fc.tuple(fc.constantFrom(...g), fc.constantFrom(...g), fc.constantFrom(...g))),
          ([a, b, c]) => {
            const row = (f: unknown) => projection.row(f);
            expect(row(projection.merge(a, b))).toEqual(row(projection.merge(b, a)));
            expect(row(projection.merge(projection.merge(a, b), c))).toEqual(row(projection.merge(a, projection.merge(b, c))));
            expect(row(projection.merge(a, a))).toEqual(row(a));
          },
        ),
        { numRuns: 200 },
      );
    });
  }
});
