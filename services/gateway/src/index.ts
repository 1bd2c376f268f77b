export { gatewayModule, GATEWAY_MIGRATIONS, type GatewayOptions } from './gateway';
export { AcceptedSchema, type Accepted, type EnvelopeInput, type EnvelopeOutcome, type EnvelopeResult, type Intake, type Sender } from './intake';
export { INGEST_HEADERS, MAX_BATCH } from './routes/ingest';
export { CreateTenantSchema } from './routes/tenants';
export { WEBHOOK_EVENT_HEADERS, WebhookEventSchema } from './routes/webhook-events';
export { INGEST_IDEMPOTENCY, openIntake, type SharedIntake } from './shared-intake';
