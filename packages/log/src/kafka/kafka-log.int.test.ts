import { eventLogContract } from '../contract/event-log.contract';
import { kafkaLog } from '../../../../test/support/infra';

eventLogContract('Kafka', () => kafkaLog('log'));
