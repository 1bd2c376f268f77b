import { eventLogContract } from '../contract/event-log.contract';
import { kafkaBrokers, uniqueNamespace } from '@earshot/testing';
import { createPlatformaticLog } from './platformatic-log';

eventLogContract('Kafka (@platformatic/kafka)', (namespace = uniqueNamespace('platformatic')) =>
  createPlatformaticLog({ brokers: kafkaBrokers(), clientId: 'test-platformatic', namespace }),
);
