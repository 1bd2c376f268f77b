export * from './chromium';
export * from './contract-tools';
export * from './database';
export * from './earshot';
export * from './fault-proxy';
export * from './figure';
export * from './fixtures/append-events';
export * from './fixtures/call-script';
export * from './fixtures/caught-up';
export * from './fixtures/log-records';
export * from './fixtures/projection-spec';
export * from './fixtures/snapshot';
export * from './gateway';
export * from './infra';
export * from './keys';
export * from './local-infra/infra';
export * from './plaintext-scan';
export * from './python-tools';
export * from './query';
export * from './schemathesis';
export * from './sdk-harness';

/** The projector in a process of its own, for tests that SIGKILL it. */
export const PROJECTOR_PROCESS = new URL('./fixtures/projector-process.ts', import.meta.url).pathname;
export { startKafka, stopKafka } from './local-infra/kafka';
