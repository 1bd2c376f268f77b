import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

type Manifest = { kind?: string; spec?: { template?: { spec?: { containers?: { command?: string[] }[] } } } };

/**
 * The V8 flags of a target's `node` command in deploy/k8s/<target>.yaml (its
 * old space, and growth between mark-compacts), so its processes in a bench
 * get the heap they get there rather than the host's.
 */
export function deployedHeapFlags(target: 'gateway' | 'projector'): string[] {
  const file = `deploy/k8s/${target}.yaml`;
  const documents = parseAllDocuments(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
  const command = documents.map((d) => d.toJS() as Manifest).find((o) => o.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0]?.command ?? [];
  const flags = command.filter((part) => part.startsWith('--'));
  if (!flags.some((flag) => flag.startsWith('--max-old-space-size='))) throw new Error(`${file}'s command names no --max-old-space-size`);
  return flags;
}
