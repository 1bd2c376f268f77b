export { allowsAddress } from './ip-allowlist';
export { bearer, header, registerAuthHook, type AuthDependencies } from './request-auth';
export { registerRateLimitHook } from './request-limits';
export type { RoutePolicy, RouteRateLimit } from './route-policy';
