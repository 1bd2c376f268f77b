export * from './database';
export * from './deadlocks';
export * from './embedded';
export * from './leases';
export * from './migrations';
export * from './sql-state';
export * from './tenant-reads';
export * from './platform-scope';
export { prepared } from './prepared-statements';
export { shapedQuery, type Shaped } from './shaped-statements';
export * from './tenant-scope';

/** The migrations of the database itself (roles and grants), applied before every module's. */
export const DATABASE_MIGRATIONS = { module: 'db', directory: new URL('../migrations/', import.meta.url) } as const;
