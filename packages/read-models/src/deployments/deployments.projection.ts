import type { RegisterProjection } from '../projection';

/** One row per deployment id; a corrected record of the same deployment (later stamp) replaces it. */
export const deployments: RegisterProjection = {
  kind: 'register',
  name: 'deployments',
  version: 1,
  table: 'deployments',
  key: ['id'],
  handles: ['deployment.recorded'],
  rows({ event, stamp }) {
    if (event.type !== 'deployment.recorded') return [];
    const d = event.data;
    return [
      {
        id: d.deployment_id,
        agent: d.agent,
        version: d.version,
        deployed_at: d.deployed_at,
        previous_version: d.previous_version,
        environment: d.environment,
        description: d.description,
        deployed_by: d.deployed_by,
        precedence: stamp,
      },
    ];
  },
};
