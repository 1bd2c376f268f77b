import { z } from 'zod';
import {
  AcceptedWriteSchema,
  ErrorBodySchema,
  HealthDegradedSchema,
  HealthSchema,
  IncomingEventSchema,
  AcceptedSchema,
  CreateTenantSchema,
  INGEST_HEADERS,
  MAX_BATCH,
  ProviderDeliveryAnswerSchema,
  ProviderWebhookParamsSchema,
  WEBHOOK_EVENT_HEADERS,
  RecordIdParamsSchema,
  WebhookEventSchema,
  storedId,
} from '@earshot/contracts';

/**
 * The zod contracts of the routes that parse their own bodies and so declare
 * no Fastify schema: the signed webhooks (the signature covers the raw bytes,
 * and an invalid envelope goes to the dead-letter store rather than bouncing
 * at a validator) and the operator routes. The description reads them from
 * here; every other route describes itself.
 */
export interface RouteContract {
  headers?: z.ZodType;
  params?: z.ZodType;
  body?: z.ZodType;
  response: Record<number, z.ZodType>;
  /** The security scheme of the signature the route checks (below). */
  signedWith?: keyof typeof SIGNATURE_SCHEMES;
}

const BatchResultSchema = z.object({ ok: z.literal(true), results: z.array(z.union([AcceptedSchema, ErrorBodySchema])) });
const OperatorAnswerSchema = z.looseObject({ ok: z.literal(true) });

const signedErrors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  409: ErrorBodySchema,
  413: ErrorBodySchema,
  429: ErrorBodySchema,
  503: ErrorBodySchema,
};
const operatorErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 503: ErrorBodySchema };

/**
 * The webhook signatures as security schemes, so tools show them beside the
 * key; the timestamp the signature covers stays a header parameter, since a
 * scheme names one header.
 */
export const SIGNATURE_SCHEMES = {
  ingestSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Earshot-Signature',
    description:
      'Lowercase hex HMAC-SHA256 of `X-Earshot-Timestamp + "." + raw body`, keyed with the tenant webhook secret; the timestamp must be within 5 minutes of server time.',
  },
  eventSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Signature',
    description: 'Lowercase hex HMAC-SHA256 of `X-Timestamp + "." + raw body`, keyed with the tenant webhook secret.',
  },
} as const;

const signature = 'lowercase hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed with the tenant webhook secret';
const timestamp = 'Unix time in seconds; rejected outside ±5 minutes of server time';

export const ROUTE_CONTRACTS: Record<string, RouteContract> = {
  'GET /health': { response: { 200: HealthSchema, 503: HealthDegradedSchema } },
  'GET /api/v1/health': { response: { 200: HealthSchema, 503: HealthDegradedSchema } },
  'POST /api/v1/webhooks/ingest': {
    headers: z.object({
      [INGEST_HEADERS.timestamp]: z.string().regex(/^\d+$/).describe(timestamp),
      [INGEST_HEADERS.signature]: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe(signature),
      [INGEST_HEADERS.provider]: z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/)
        .describe('the sending provider, e.g. vapi, retell, twilio'),
    }),
    body: z.union([IncomingEventSchema, z.array(IncomingEventSchema).min(1).max(MAX_BATCH)]),
    response: { 202: z.union([AcceptedSchema, BatchResultSchema]), ...signedErrors },
    signedWith: 'ingestSignature',
  },
  'POST /api/v1/webhooks/events': {
    headers: z.object({
      [WEBHOOK_EVENT_HEADERS.timestamp]: z.string().regex(/^\d+$/).describe(timestamp),
      [WEBHOOK_EVENT_HEADERS.signature]: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .describe(signature),
      [WEBHOOK_EVENT_HEADERS.idempotencyKey]: storedId,
    }),
    body: WebhookEventSchema,
    response: { 200: AcceptedWriteSchema, ...signedErrors },
    signedWith: 'eventSignature',
  },
  'POST /api/v1/webhooks/providers/:provider/:connectionId': {
    params: ProviderWebhookParamsSchema,
    body: z.unknown().describe('the provider’s payload as it sends it (Twilio: form parameters), signed its way; see the Providers tag'),
    response: {
      200: ProviderDeliveryAnswerSchema,
      400: ErrorBodySchema,
      401: ErrorBodySchema,
      403: ErrorBodySchema,
      404: ErrorBodySchema,
      413: ErrorBodySchema,
      429: ErrorBodySchema,
      503: ErrorBodySchema,
    },
  },
  'POST /api/v1/admin/tenants': {
    body: CreateTenantSchema,
    response: { 201: OperatorAnswerSchema, ...operatorErrors },
  },
  'GET /api/v1/admin/deliveries': { response: { 200: OperatorAnswerSchema, ...operatorErrors } },
  'GET /api/v1/admin/dead-letters': { response: { 200: OperatorAnswerSchema, ...operatorErrors } },
  'GET /api/v1/admin/dead-letters/:id': {
    params: RecordIdParamsSchema,
    response: { 200: OperatorAnswerSchema, ...operatorErrors },
  },
  'POST /api/v1/admin/dead-letters/:id/replay': {
    params: RecordIdParamsSchema,
    // A dead letter whose sealed body's key was destroyed (its call or its tenant erased) shows as erased, and has nothing to replay.
    response: { 200: OperatorAnswerSchema, ...operatorErrors, 410: ErrorBodySchema },
  },
};
