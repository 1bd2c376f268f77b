export { createLogger, fallbackLogger, type Logger, type LogLevel } from './logger';
export { Metrics, type LagSource, type PartitionLag } from './metrics';
