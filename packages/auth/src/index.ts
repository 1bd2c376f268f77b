export * from './api-key';
export * from './key-cache';
export * from './key-records';
export * from './key-usage';
export * from './provisioned-tenant';
export * from './secret-box';
export * from './signature';
export * from './standard-webhooks';
export * from './tenancy';
export * from './tenants';

/** Tenants and API keys; applied by every target, since any may authenticate. */
export const AUTH_MIGRATIONS = { module: 'auth', directory: new URL('../migrations/', import.meta.url) } as const;
export * from './data-keys';
export * from './master-key-rotation';
export * from './data-key-cache';
