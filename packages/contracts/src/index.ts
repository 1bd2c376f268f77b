export * from './errors';
export * from './events';
