import { z } from 'zod';
import { freeText, listPageSchema, pagingQuery, queryTime } from './list';
import { storedText } from '../text';

/** Where a key may be used: production keys start `ear_live_`, staging keys `ear_test_`. */
export const KEY_ENVIRONMENTS = ['production', 'staging'] as const;
export type KeyEnvironment = (typeof KEY_ENVIRONMENTS)[number];

/** The key's kind, shown in its prefix: `live` keys are for production only, `test` keys for staging only. */
export const KEY_KINDS = ['live', 'test'] as const;
export const KIND_OF_ENVIRONMENT: Record<KeyEnvironment, (typeof KEY_KINDS)[number]> = { production: 'live', staging: 'test' };

/**
 * Scopes a key may carry: the spec names the first four; the rest guard the
 * query service's routes (its route table says which route needs which) and
 * the management of keys, the webhook secret and provider connections.
 */
export const SCOPES = [
  'events:write',
  'traces:write',
  'calls:read',
  'metrics:read',
  'exports:read',
  'outcomes:read',
  'outcomes:write',
  'incidents:read',
  'incidents:write',
  'deployments:read',
  'deployments:write',
  'alerts:read',
  'alerts:write',
  'usage:read',
  'billing:read',
  'audit:read',
  'keys:read',
  'keys:write',
  'providers:read',
  'providers:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** `rotating`: a new secret was issued and the previous one still works until `previousSecretValidUntil`. */
export const KEY_STATUSES = ['active', 'expired', 'revoked', 'rotating'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** The longest overlap a rotation may keep the previous secret working. */
export const MAX_OVERLAP_SECONDS = 30 * 24 * 3600;
const overlapSeconds = z
  .number()
  .int()
  .min(0)
  .max(MAX_OVERLAP_SECONDS)
  .default(24 * 3600)
  .describe(`how long the previous secret keeps working, in seconds (0 to ${MAX_OVERLAP_SECONDS}; default one day)`);

const addressOrNetwork = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);

/** The spec's API key record: everything about a key but the key itself. */
export const ApiKeyRecordSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string().describe('the leading characters of the key, enough to recognise it'),
  scopes: z.array(z.enum(SCOPES)),
  environment: z.enum(KEY_ENVIRONMENTS),
  ipAllowlist: z.array(z.string()).describe('CIDRs the key may be used from; empty means any address'),
  lastUsedAt: z.string().nullable(),
  usage24h: z.number().int().describe('requests in the last 24 hours, to the minute'),
  status: z.enum(KEY_STATUSES),
  workspace: z.string(),
  expiresAt: z.string().nullable(),
  previousSecretValidUntil: z.string().nullable().describe('while rotating: when the previous secret stops working'),
  createdAt: z.string(),
  createdBy: z.object({ kind: z.enum(['apiKey', 'operator']), keyId: z.string().nullable() }),
  revokedAt: z.string().nullable(),
});
export type ApiKeyRecord = z.infer<typeof ApiKeyRecordSchema>;

export const ApiKeyInputSchema = z
  .strictObject({
    name: freeText(100),
    scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length).describe('at most the scopes of the key that creates it'),
    environment: z.enum(KEY_ENVIRONMENTS).default('production'),
    kind: z
      .enum(KEY_KINDS)
      .optional()
      .describe('live (ear_live_) keys are for production, test (ear_test_) keys for staging; follows the environment when absent'),
    workspace: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'letters, digits and . _ - (1 to 64)')
      .default('default'),
    ipAllowlist: z
      .union([z.literal('any'), z.array(addressOrNetwork).max(100)])
      .default('any')
      .describe('addresses or CIDRs (IPv4 or IPv6) the key may be used from, or "any"'),
    expiresAt: queryTime.optional().describe('when the key stops working; never when absent'),
  })
  .refine((input) => input.kind === undefined || input.kind === KIND_OF_ENVIRONMENT[input.environment], {
    path: ['kind'],
    message: 'live (ear_live_) keys are for production only and test (ear_test_) keys for staging only',
  });
export type ApiKeyInput = z.infer<typeof ApiKeyInputSchema>;

/** POST /keys and POST /keys/{id}/rotate: the record, and the key itself, shown this once. */
export const IssuedApiKeySchema = z.object({
  ok: z.literal(true),
  key: ApiKeyRecordSchema,
  secret: z.string().describe('the API key; shown once, never stored'),
});
export const ApiKeyAnswerSchema = z.object({ ok: z.literal(true), key: ApiKeyRecordSchema });

export const ApiKeyListQuerySchema = pagingQuery(50, { value: 'time', id: 'uuid' }).extend({
  workspace: storedText(64).min(1).optional(),
  status: z.enum(KEY_STATUSES).optional(),
});
export const ApiKeyListSchema = listPageSchema(ApiKeyRecordSchema);

export const ApiKeyParamsSchema = z.object({ id: z.uuid() });
export const RotationInputSchema = z.strictObject({ overlapSeconds });

export const WebhookSecretRotatedSchema = z.object({
  ok: z.literal(true),
  webhookSecret: z.string().describe('the new secret; shown once'),
  previousValidUntil: z.string().describe('until when signatures made with the previous secret still verify'),
});

/** GET /webhook-secret: never the secret, only where its rotation stands (null before the first rotation). */
export const WebhookSecretStatusSchema = z.object({
  ok: z.literal(true),
  previousValidUntil: z.string().nullable().describe('until when the previous secret verifies, as the latest rotation set it; null if never rotated'),
});

export const TENANT_STATUSES = ['active', 'suspended'] as const;

/** What the operator sees of a tenant. */
export const TenantSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(TENANT_STATUSES),
  createdAt: z.string(),
  suspendedAt: z.string().nullable(),
  activeKeys: z.number().int(),
});
export type TenantSummary = z.infer<typeof TenantSummarySchema>;
export type TenantStatus = TenantSummary['status'];
export const TenantListQuerySchema = pagingQuery(50, { value: 'time', id: 'uuid' }).extend({ status: z.enum(TENANT_STATUSES).optional() });
export const TenantListSchema = listPageSchema(TenantSummarySchema);
export const TenantParamsSchema = z.object({ id: z.uuid() });
export const TenantAnswerSchema = z.object({ ok: z.literal(true), tenant: TenantSummarySchema });
export const TenantDeletedSchema = z.object({
  ok: z.literal(true),
  id: z.uuid(),
  rowsDeleted: z.number().int().describe('rows removed from every table holding the tenant’s data'),
});

/** POST /admin/tenants (operator): a tenant and its first key, production (ear_live_) or staging (ear_test_). */
export const CreateTenantSchema = z.object({
  name: storedText(200).trim().min(1),
  environment: z.enum(KEY_ENVIRONMENTS).default('production'),
});
