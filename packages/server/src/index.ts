export * from './health';
export * from './http';
export * from './modules';
export * from './runtime';
export * from './access';
export * from './log-append';
export * from './request-validation';
export * from './periodic';
