import { describe } from 'vitest';
import { describeScenarios } from './scenarios';
import { splitTopology } from './topologies';

describe('end to end: gateway, keys, projector, query and audit as separate processes on Kafka and PostgreSQL', () => {
  describeScenarios(splitTopology);
});
