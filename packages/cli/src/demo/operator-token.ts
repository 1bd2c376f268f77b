import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@earshot/config';

function operatorTokenFile(dataDir: string): string {
  return join(dataDir, 'admin.token');
}

/**
 * The config with an operator token, so the zero-setup mode needs none set:
 * outside production, when EARSHOT_ADMIN_TOKEN is unset, the token kept
 * (mode 0600) in the data directory is used, generated on first start.
 * `file` says where it is, for the banner and for `earshot tenant`.
 */
export function withOperatorToken(config: Config, options: { generate: boolean }): { config: Config; file: string | undefined } {
  if (config.EARSHOT_ADMIN_TOKEN !== undefined || config.NODE_ENV === 'production') return { config, file: undefined };
  const file = operatorTokenFile(config.EARSHOT_DATA_DIR);
  if (existsSync(file)) return { config: { ...config, EARSHOT_ADMIN_TOKEN: readFileSync(file, 'utf8').trim() }, file };
  if (!options.generate) return { config, file: undefined };
  mkdirSync(config.EARSHOT_DATA_DIR, { recursive: true });
  const token = `eop_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { config: { ...config, EARSHOT_ADMIN_TOKEN: token }, file };
}
