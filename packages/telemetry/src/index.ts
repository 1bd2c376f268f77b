export { createLogger, fallbackLogger, type Logger, type LogLevel } from './logger';
