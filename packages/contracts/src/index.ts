export * from './errors';
export * from './events';
export * from './api';
export * from './text';
