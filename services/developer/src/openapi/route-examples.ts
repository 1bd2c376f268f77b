import { IncomingEventSchema, OutcomeInputSchema, IncidentInputSchema } from '@earshot/contracts';
import { sampleEvent } from '@earshot/events/samples';

type Schema = Record<string, unknown>;

/**
 * Request examples, made from the same sample events the tests use and
 * checked against the route's own contract, so an example can never drift
 * from what the route accepts.
 */
const REQUEST_EXAMPLES: Record<string, () => unknown> = {
  'POST /api/v1/webhooks/ingest': () => IncomingEventSchema.parse(sampleEvent('call.started')),
  'POST /api/v1/webhooks/events': () => ({ type: 'call.ended', agent_id: 'agent_support', provider_call_id: 'call_4f2a', latency_ms: 840 }),
  'POST /api/v1/outcomes': () =>
    OutcomeInputSchema.parse({
      callId: '3f6b0c5e-8a8d-4a57-b1f4-2c6e9d0a7b21',
      type: 'appointment_booked',
      value: 'tuesday 10:00',
      source: 'crm',
      revenueUsd: 120,
    }),
  'POST /api/v1/incidents': () => IncidentInputSchema.parse({ title: 'ASR latency above 800 ms', severity: 'high' }),
};

/** The route's schema with its request example, where it has one. */
export function routeExamples(route: string, schema: Schema): Schema {
  const example = REQUEST_EXAMPLES[route];
  const body = schema.body as Schema | undefined;
  if (!example || !body) return schema;
  return { ...schema, body: { ...body, examples: [example()] } };
}
