export { CONSOLE_PATH, consoleModule, type ConsoleOptions } from './console-module';
