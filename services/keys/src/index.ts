export { keysModule, KEYS_MIGRATIONS } from './keys';
