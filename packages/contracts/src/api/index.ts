export * from './calls';
export * from './list';
export * from './operations';
export * from './tenant-records';
export * from './alert-rules';
export * from './billing';
export * from './deployment-impact';
export * from './keys';
