/**
 * The Providers tag's description: for each provider, where its webhook URL
 * goes and which credential to give. The explorer shows it above the routes;
 * the README says the same.
 */
export const PROVIDERS_GUIDE = [
  'Point a voice platform’s own webhooks at Earshot. `POST /api/v1/providers` with the provider and the credential it signs with answers the connection’s `webhookUrl`; paste it at the provider. Its deliveries carry no API key: the URL names the connection (and so the tenant), and the provider’s signature is checked the provider’s way. Each is answered 200 (a retry too); an event type Earshot does not map is kept as a dead letter.',
  '**Retell**: paste the URL as the agent’s webhook URL (or the account’s). Credential `{ "apiKey": "key_…" }`: the Retell API key with the webhook badge, which signs `x-retell-signature`.',
  '**Vapi**: paste the URL as the Server URL (assistant, phone number or organization) and give Earshot the credential attached there: an HMAC plan `{ "type": "hmac", "secretKey": "…", "algorithm": "sha256" }` with the same headers and payload format, a bearer token `{ "type": "bearer", "token": "…" }`, or the legacy `{ "type": "secret", "secret": "…" }` sent as X-Vapi-Secret. Send status-update, end-of-call-report, transcript, tool-calls, user-interrupted and transfer-update.',
  '**Twilio**: paste the URL as the StatusCallback (events initiated, ringing, answered, completed) and the RecordingStatusCallback. Credential `{ "authToken": "…" }`: the account’s Auth Token. Twilio signs the URL it calls: behind a proxy that rewrites the host, set EARSHOT_PUBLIC_URL.',
  '**ElevenLabs Agents**: create a workspace webhook with HMAC authentication on the URL and choose it for post-call webhooks (transcription, audio, call initiation failure). Credential `{ "secret": "…" }`: the shared secret shown when the webhook was made.',
  '**Bland**: pass the URL as a call’s or pathway’s `webhook`. Credential `{ "secret": "…" }`: the webhook signing secret from the Dev Portal (Account Settings, Keys).',
  '**Standard Webhooks** (any sender of standardwebhooks.com messages): give no credential; the answer holds a `whsec_` secret, shown once, to sign with. Send Earshot envelopes as the ingest takes them, or give the connection a `mapping` from your event names to Earshot’s.',
].join('\n\n');
