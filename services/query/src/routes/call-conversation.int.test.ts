import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '@earshot/contracts';
import { callIdOf, isSealed, SEALED_PREFIX } from '@earshot/events';
import { callScript, startTestQuery, type QueryTenant, type TestQuery } from '@earshot/testing';

interface Said {
  turnId: string;
  text: string | null;
}

/** What the call's events said, by turn, as GET /calls/{id} lists them: the transcript's segments, then the agent's turns. */
function saidIn(events: readonly StoredEvent[]): { transcript: string[]; turns: (string | null)[] } {
  const transcript = events.flatMap((e) => (e.type === 'transcript.final' ? [e.data.text] : []));
  const turns = events.flatMap((e) => (e.type === 'agent.response.generated' ? [e.data.text] : []));
  return { transcript, turns };
}

/**
 * What was said on a call stays sealed in the read models, as ingest sealed
 * it, and GET /calls/{id} and GraphQL open it with the caller's own keys.
 */
describe('a call’s conversation text', () => {
  let query: TestQuery;
  let acme: QueryTenant;
  let globex: QueryTenant;
  const script = () => callScript({ tenant: acme.id, providerCallId: 'sealed-call', turns: 5 });

  async function detail(tenant: QueryTenant, providerCallId: string): Promise<{ transcript: Said[]; turns: Said[] }> {
    const response = await query.get(`/calls/${callIdOf(tenant.id, 'vapi', providerCallId)}`, tenant.apiKey);
    expect(response.statusCode).toBe(200);
    return response.json<{ call: { transcript: Said[]; turns: Said[] } }>().call;
  }

  beforeAll(async () => {
    query = await startTestQuery('call-conversation');
    acme = await query.createTenant('Acme');
    globex = await query.createTenant('Globex');
    await query.project(script(), { sealed: true });
  });
  afterAll(async () => query?.stop());

  it('is kept sealed in the transcripts and turns tables, as are its tool calls’ arguments and results in traces', async () => {
    const id = callIdOf(acme.id, 'vapi', 'sealed-call');
    const stored = (await query.db.query(query.sql`
      select text from transcripts where call_id = ${id} union all select text from turns where call_id = ${id}`)) as { text: string }[];
    expect(stored.length).toBeGreaterThanOrEqual(6);
    for (const { text } of stored) expect(text).toSatisfy(isSealed);
    const tools = (await query.db.query(query.sql`
      select detail->'arguments' as arguments, detail->'result' as result from traces where call_id = ${id} and kind = 'tool_call'`)) as {
      arguments: unknown;
      result: unknown;
    }[];
    expect(tools).toHaveLength(1);
    for (const tool of tools) expect([tool.arguments, tool.result]).toEqual([expect.toSatisfy(isSealed), expect.toSatisfy(isSealed)]);
  });

  it('is opened for its tenant by GET /calls/{id} and by GraphQL', async () => {
    const said = saidIn(script());
    const call = await detail(acme, 'sealed-call');
    expect(call.transcript.map((s) => s.text)).toEqual(said.transcript);
    expect(call.turns.map((t) => t.text)).toEqual(said.turns);

    const answer = await query.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${acme.apiKey}` },
      payload: { query: `{ call(id: "${callIdOf(acme.id, 'vapi', 'sealed-call')}") { transcript { text } turns { text } } }` },
    });
    expect(answer.json()).toEqual({
      data: { call: { transcript: said.transcript.map((text) => ({ text })), turns: said.turns.map((text) => ({ text })) } },
    });
  });

  it('is answered as sent when it only looks sealed, and never opens with another tenant’s key', async () => {
    const id = callIdOf(acme.id, 'vapi', 'sealed-call');
    const [stolen] = (await query.db.query(query.sql`select text from transcripts where call_id = ${id} limit 1`)) as { text: string }[];
    const lookalikes = [stolen?.text ?? '', `${SEALED_PREFIX}dk_nobody:AAAA`, `${SEALED_PREFIX}not a key id:AAAA`];
    // Sent in the clear and sealed alike: a tenant's words are its own, whatever they look like.
    for (const [sealed, providerCallId] of [
      [false, 'lookalike-clear'],
      [true, 'lookalike-sealed'],
    ] as const) {
      const events = callScript({ tenant: globex.id, providerCallId, turns: 3 }).map((event) =>
        event.type === 'transcript.final' ? { ...event, data: { ...event.data, text: lookalikes[Number(event.data.turn_id.slice(-1)) % 3] ?? '' } } : event,
      );
      await query.project(events, { sealed });
      const sent = saidIn(events).transcript;
      expect(sent).toEqual(expect.arrayContaining(lookalikes));
      expect((await detail(globex, providerCallId)).transcript.map((s) => s.text)).toEqual(sent);
    }
  });
});
