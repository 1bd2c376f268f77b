export { callIdOf, type ProjectedEvent } from './projected-event';
export { READ_MODELS } from './read-models';
export { CALL_STATUSES, type CallStatus } from './read-models/calls/call-status';
export { METRICS } from './read-models/metric-rollups/metric-rollups.projection';
export { mergeSketches, quantile, RELATIVE_ACCURACY, type Sketch } from './read-models/metric-rollups/sketch';
export { PROJECTOR_MIGRATIONS } from './store/migration-sets';
export { startProjector, type ProjectorOptions } from './projector';
export { projectorModule } from './module';
