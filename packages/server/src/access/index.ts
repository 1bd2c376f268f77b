export { apiScope, type ApiScopeOptions } from './api-scope';
export { allowsAddress } from './ip-allowlist';
export { batchItemBytes, eventCount, receiveBody, receivedBody, type ReceivedBody } from './received-body';
export { bearer, header } from './request-headers';
export { scopesOf, type RoutePolicy, type RouteRateLimit, type SignaturePolicy } from './route-policy';
export { openAccess, type Access, type AccessOptions } from './runtime-access';
