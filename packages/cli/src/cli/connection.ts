import type { Command } from 'commander';
import { loadConfig } from '@earshot/config';
import { Earshot } from '@earshot/sdk';
import { readDemoCredentials } from '../demo/demo-credentials';
import { localOrigin } from '../local-instance';
import { readProfile } from './profiles';

/** The options every client command takes from the program: flags, which commander fills from the environment when absent. */
export interface GlobalOptions {
  profile?: string;
  url?: string;
  key?: string;
}

export interface Connection {
  baseUrl: string;
  apiKey: string;
  /** Where the key came from, for `whoami`. */
  source: string;
}

/**
 * Where a client command goes and with which key: --url/--key (or
 * EARSHOT_BASE_URL/EARSHOT_API_KEY), else the profile (--profile, or the
 * one `earshot login` made current), else the instance serving this
 * directory with its demonstration key.
 */
export function connectionOf(options: GlobalOptions): Connection {
  const stored = readProfile(options.profile);
  const config = loadConfig();
  const demoKey = stored ? undefined : readDemoCredentials(config.EARSHOT_DATA_DIR)?.apiKey;
  const apiKey = options.key ?? stored?.profile.apiKey ?? demoKey;
  if (!apiKey) throw new Error('no API key: run "earshot login", or pass --key, or set EARSHOT_API_KEY');
  const baseUrl = options.url ?? stored?.profile.baseUrl ?? localOrigin(config);
  const source = options.key ? '--key or EARSHOT_API_KEY' : stored ? `profile "${stored.name}"` : 'the demonstration key of this directory';
  return { baseUrl, apiKey, source };
}

/** The SDK's client for the command's connection: every client command talks to the API through it. */
export function clientOf(command: Command): Earshot {
  const { baseUrl, apiKey } = connectionOf(command.optsWithGlobals<GlobalOptions>());
  return new Earshot({ apiKey, baseUrl, maxRetries: 1 });
}
