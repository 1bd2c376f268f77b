import type { ProviderName } from '@earshot/contracts';
import { mapBland } from './bland/events';
import { blandVerifier } from './bland/verify';
import type { ProviderAdapter } from './delivery';
import { mapElevenLabs } from './elevenlabs/events';
import { elevenLabsVerifier } from './elevenlabs/verify';
import { parseJsonBody } from './json-body';
import { mapRetell } from './retell/events';
import { retellVerifier } from './retell/verify';
import { sha256Hex } from './signatures';
import { mapStandardWebhooks } from './standard-webhooks/events';
import { standardWebhooksVerifier } from './standard-webhooks/verify';
import { mapTwilio } from './twilio/events';
import { parseTwilioBody } from './twilio/payload';
import { twilioVerifier } from './twilio/verify';
import { mapVapi } from './vapi/events';
import { vapiVerifier } from './vapi/verify';

/** Every provider's way in, by name: one module each for its signature and its mapping. */
export const PROVIDER_ADAPTERS: { [P in ProviderName]: ProviderAdapter<P> } = {
  retell: { provider: 'retell', verifier: retellVerifier, parse: parseJsonBody, map: mapRetell },
  vapi: { provider: 'vapi', verifier: vapiVerifier, parse: parseJsonBody, map: mapVapi },
  twilio: { provider: 'twilio', verifier: twilioVerifier, parse: parseTwilioBody, map: mapTwilio },
  elevenlabs: { provider: 'elevenlabs', verifier: elevenLabsVerifier, parse: parseJsonBody, map: mapElevenLabs },
  bland: { provider: 'bland', verifier: blandVerifier, parse: parseJsonBody, map: mapBland },
  'standard-webhooks': { provider: 'standard-webhooks', verifier: standardWebhooksVerifier, parse: parseJsonBody, map: mapStandardWebhooks },
};

/** The key of a delivery: the provider's id for it where it sends one, else the SHA-256 of its bytes. */
export function deliveryKeyOf(deliveryId: string | null, body: Buffer): string {
  return deliveryId ?? `sha256:${sha256Hex(body)}`;
}
