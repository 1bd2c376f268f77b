export { deriveEvent, type Derived, type Effect } from './effects';
export { createBatchApplier } from './store/apply-batch';
export { addCount, type CounterRows } from './store/tenant-fold';
export { PROJECTOR_MIGRATIONS } from './store/migration-sets';
export { PROJECTED_TOPICS, startProjector, type ProjectorOptions } from './projector';
export { projectorModule } from './module';
export { dataKeyOptions } from './data-key-options';
export { rebuildReadModels, type RebuildProgress, type RebuildSummary } from './replay/rebuild';
export { EXPORT_FORMATS, exportLog, type ExportFormat } from './export/export-log';
