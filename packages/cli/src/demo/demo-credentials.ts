import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** What `${EARSHOT_DATA_DIR}/demo.json` holds: the demonstration tenant's credentials, for `earshot demo` and for people. */
export const DemoCredentialsSchema = z.object({
  tenantId: z.uuid(),
  apiKey: z.string().min(1),
  webhookSecret: z.string().min(16),
});

export type DemoCredentials = z.infer<typeof DemoCredentialsSchema>;

export function demoFile(dataDir: string): string {
  return join(dataDir, 'demo.json');
}

/** The stored credentials, or undefined when there are none yet; a file that is not ours is an error worth stopping for. */
export function readDemoCredentials(dataDir: string): DemoCredentials | undefined {
  const file = demoFile(dataDir);
  if (!existsSync(file)) return undefined;
  const parsed = DemoCredentialsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(
      `${file} does not hold demonstration credentials (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}); remove it to start afresh`,
    );
  return parsed.data;
}

/** Written with mode 0600: it holds a live key and a signing secret. */
export function writeDemoCredentials(dataDir: string, credentials: DemoCredentials): void {
  mkdirSync(dataDir, { recursive: true });
  const file = demoFile(dataDir);
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
