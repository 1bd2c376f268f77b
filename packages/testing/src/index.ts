// Nearly every suite imports this entry point, so what it loads is paid per test file: the services load when a
// test starts one (dependency-cruiser's test-kit-loads-services-when-started rule), not here.
export * from './broker-outage';
export * from './chromium';
export * from './contract-tools';
export * from './database';
export * from './debian-package';
export * from './earshot';
export * from './fault-proxy';
export * from './figure';
export * from './fixtures/append-events';
export * from './fixtures/call-script';
export * from './fixtures/caught-up';
export * from './fixtures/log-records';
export * from './fixtures/projection-spec';
export * from './fixtures/read-model-store';
export * from './fixtures/projector-child';
export * from './fixtures/snapshot';
export * from './fixtures/transcribed-call';
export * from './gateway';
export * from './grpc-client';
export * from './held-locks';
export * from './infra';
export * from './keys';
export * from './logged-entries';
export * from './local-infra/infra';
export * from './plaintext-scan';
export * from './python-tools';
export * from './query';
export * from './schemathesis';
export * from './seeded-random';
export * from './settled-within';
export * from './test-folder';
export * from './sdk-harness';

export { startKafka, stopKafka } from './local-infra/kafka';
