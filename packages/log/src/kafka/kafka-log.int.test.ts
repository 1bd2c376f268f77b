import { eventLogContract } from '../contract/event-log.contract';
import { kafkaLog } from '@earshot/testing';

eventLogContract('Kafka', () => kafkaLog('log'));
