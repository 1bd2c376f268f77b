import type { MigrationSet } from '@earshot/db';
import { READ_MODEL_TABLE_MIGRATIONS } from '@earshot/read-models';

/** Roles and SQL functions, applied once: not part of a copy of the read models. */
const PROJECTOR_CORE_MIGRATIONS: MigrationSet = { module: 'projector', directory: new URL('./migrations/core/', import.meta.url) };

/** Everything one copy of the read models is made of, positions included: a replay builds a fresh copy from exactly these files. */
export const READ_MODEL_MIGRATIONS: readonly MigrationSet[] = [
  { module: 'projector.positions', directory: new URL('./migrations/positions/', import.meta.url) },
  ...READ_MODEL_TABLE_MIGRATIONS,
];

export const PROJECTOR_MIGRATIONS: readonly MigrationSet[] = [PROJECTOR_CORE_MIGRATIONS, ...READ_MODEL_MIGRATIONS];
