import type { MigrationSet } from '@earshot/db';
import { READ_MODELS } from './read-models';

/** Each read model's tables, from the migrations in its folder: a replay builds a fresh copy of them from exactly these files. */
export const READ_MODEL_TABLE_MIGRATIONS: readonly MigrationSet[] = READ_MODELS.map((p) => ({
  module: `projector.${p.name}`,
  directory: new URL(`./${p.name}/migrations/`, import.meta.url),
}));
