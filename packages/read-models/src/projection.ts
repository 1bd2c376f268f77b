import type { EventType } from '@earshot/contracts';
import type { ProjectedEvent } from './projected-event';

/** A column value as the store writes it: JSON-shaped, cast by Postgres to the column's type. */
export type Cell = string | number | boolean | null | readonly unknown[] | { readonly [key: string]: unknown };
export type Row = Record<string, Cell>;

interface Named {
  /** Read model name, also its migration set and its folder. */
  name: string;
  /** Bumped when the rows it derives change meaning: a replay rebuilds them. */
  version: number;
  table: string;
  /** Key columns besides tenant_id. */
  key: readonly string[];
}

/**
 * A read model whose rows are built from every event about them: each event
 * contributes facts, and facts merge by rules that ignore order and repeats
 * (see registers.ts), so the stored row never depends on arrival order.
 */
export interface DocumentProjection<Facts> extends Named {
  kind: 'document';
  handles: readonly EventType[];
  /** The row an event is about (its key columns) and what the event says about it; null when it says nothing. */
  facts(event: ProjectedEvent): { key: Row; facts: Facts } | null;
  merge(a: Facts, b: Facts): Facts;
  /** The columns readers see, derived from the facts alone. */
  row(facts: Facts): Row;
  /** What one row adds to a counter read model (a call to the day's usage); the store writes the difference a change makes. */
  contribution?: { to: CounterProjection; rows(facts: Facts): Row[] };
}

/** A register row's `precedence` as text, the order its writers are compared in (their events' stamps). */
export function precedenceOf(row: Row): string {
  const precedence = row.precedence;
  return typeof precedence === 'string' ? precedence : JSON.stringify(precedence);
}

/** A read model of rows each set whole by one event; a stored row is replaced only by one of higher `precedence`. */
export interface RegisterProjection extends Named {
  kind: 'register';
  handles: readonly EventType[];
  rows(event: ProjectedEvent): Row[];
}

/**
 * How a counter column adds up. For 'sketch' a derived row gives one sample, a number (or null for none), and the
 * stored column holds the sketch of every sample added: a sketch per sample would be an object per event, folded once.
 */
export type CounterMerge = 'sum' | 'min' | 'max' | 'sketch';

/** A read model of additive counters (rollups, meters): every fresh event adds to them, so the store applies each event once. */
export interface CounterProjection extends Named {
  kind: 'counter';
  handles: readonly EventType[];
  merge: Readonly<Record<string, CounterMerge>>;
  rows(event: ProjectedEvent): Row[];
  /**
   * Its key holds `shard`, which the store sets to the log partition of the batch writing the row: rows that every
   * concurrent batch adds to (a tenant's day, an agent's minute) are then one per partition, and batches of different
   * partitions never wait on each other's. Readers add a key's shards up.
   */
  sharded?: true;
}

/** The store treats facts as opaque JSON (methods are bivariant, so any document projection fits). */
export type Projection = DocumentProjection<unknown> | RegisterProjection | CounterProjection;
