import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

const ProfileSchema = z.object({ baseUrl: z.string().min(1), apiKey: z.string().min(1), tenantName: z.string().optional() });
export type Profile = z.infer<typeof ProfileSchema>;

const ProfilesFileSchema = z.object({ current: z.string().optional(), profiles: z.record(z.string(), ProfileSchema) });
type ProfilesFile = z.infer<typeof ProfilesFileSchema>;

export const DEFAULT_PROFILE = 'default';

/** EARSHOT_CONFIG_DIR, else the platform's per-user config directory (XDG on Linux, AppData on Windows). */
function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.EARSHOT_CONFIG_DIR) return env.EARSHOT_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'earshot');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'earshot');
}

function profilesFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'profiles.json');
}

function readFile(env: NodeJS.ProcessEnv): ProfilesFile {
  const file = profilesFile(env);
  if (!existsSync(file)) return { profiles: {} };
  const parsed = ProfilesFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not an earshot profiles file; remove it and run "earshot login" again`);
  return parsed.data;
}

/** The named profile, or the current one when no name is given; undefined when there is none. */
export function readProfile(name: string | undefined, env: NodeJS.ProcessEnv = process.env): { name: string; profile: Profile } | undefined {
  const stored = readFile(env);
  const chosen = name ?? stored.current ?? DEFAULT_PROFILE;
  const profile = stored.profiles[chosen];
  if (name !== undefined && !profile) throw new Error(`no profile "${name}" in ${profilesFile(env)}; run "earshot login --profile ${name}"`);
  return profile ? { name: chosen, profile } : undefined;
}

/** Stores the profile and makes it the current one. The file holds live keys, so it is the user's alone (0600, in a 0700 directory). */
export function writeProfile(name: string, profile: Profile, env: NodeJS.ProcessEnv = process.env): string {
  const stored = readFile(env);
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = profilesFile(env);
  const next: ProfilesFile = { current: name, profiles: { ...stored.profiles, [name]: profile } };
  writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}
