export { allowsAddress } from './ip-allowlist';
export { bearer, header, registerAuthHook, type AuthDependencies } from './request-auth';
export { registerRateLimitHook } from './request-limits';
export { scopesOf, type RoutePolicy, type RouteRateLimit } from './route-policy';
