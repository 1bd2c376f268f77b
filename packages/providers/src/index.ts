export { deliveryKeyOf, PROVIDER_ADAPTERS } from './adapters';
export type { DeliveryRequest, Mapping, MappingContext, ProviderAdapter, Verification, Verifier } from './delivery';
export type { EventSource, ProviderEnvelope } from './envelopes';
