export { keysModule, KEYS_MIGRATIONS, type KeysOptions } from './keys';
