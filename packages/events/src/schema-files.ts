import { readdirSync, readFileSync } from 'node:fs';

/** A schema file as released: schemas/<subject>/<version>.avsc, where subject is an event type, envelope, dead-letter or delivery. */
export interface SchemaFile {
  /** Relative to the repository root, e.g. schemas/call.started/2026-01-01.avsc. */
  readonly path: string;
  readonly subject: string;
  readonly version: string;
  readonly text: string;
}

/** The repository's schemas/ directory, resolved from this file so any working directory works. */
export const SCHEMAS_ROOT = new URL('../../../schemas/', import.meta.url);

const VERSION_FILE = /^(\d{4}-\d{2}-\d{2})\.avsc$/;

export function readSchemaFiles(root: URL = SCHEMAS_ROOT): SchemaFile[] {
  const files: SchemaFile[] = [];
  for (const subject of readdirSync(root, { withFileTypes: true })) {
    if (!subject.isDirectory()) continue;
    for (const name of readdirSync(new URL(`${subject.name}/`, root))) {
      const version = VERSION_FILE.exec(name)?.[1];
      if (version === undefined) {
        if (name.endsWith('.avsc')) throw new Error(`schemas/${subject.name}/${name}: a schema file is named after its version, YYYY-MM-DD.avsc`);
        continue;
      }
      files.push({
        path: `schemas/${subject.name}/${name}`,
        subject: subject.name,
        version,
        text: readFileSync(new URL(`${subject.name}/${name}`, root), 'utf8'),
      });
    }
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
