export { deadLettersTopic, deliveriesTopic, eventsTopic, readRecord, type EventRecordOptions, type TopicPayload } from './registry';
