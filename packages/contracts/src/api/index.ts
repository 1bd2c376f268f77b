export * from './calls';
export * from './list';
export * from './operations';
export * from './tenant-records';
