export * from './event-log';
export * from './topics';
export { createKafkaLog, type KafkaLogOptions } from './kafka/kafka-log';
export { createEmbeddedLog, type EmbeddedLogOptions } from './embedded/embedded-log';
export { EMBEDDED_LOG_MIGRATIONS } from './embedded/migrations';
export { instrumentLog } from './instrumented-log';
