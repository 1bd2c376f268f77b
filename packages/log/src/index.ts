export * from './event-log';
export * from './topics';
export { createKafkaLog, type KafkaLogOptions } from './kafka/kafka-log';
