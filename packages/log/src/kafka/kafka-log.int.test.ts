import { eventLogContract } from '../contract/event-log.contract';
import { kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import { createKafkajsLog } from './kafka-log';

eventLogContract('Kafka (kafkajs)', (namespace = uniqueNamespace('log')) => createKafkajsLog({ brokers: kafkaBrokers(), clientId: 'test-kafkajs', namespace }));
