import type { LogRecord } from '@earshot/log';
import { addSample, copySketch, sketchOf, type Sketch } from '@earshot/metrics';
import { precedenceOf, type Cell, type CounterProjection, type DocumentProjection, type RegisterProjection, type Row } from '@earshot/read-models';
import type { Decoded } from '../decode-record';
import type { Derived } from '../effects';

/**
 * A row's key within its tenant (tenant_id left out), from its key columns' values in order: also the order rows are
 * written, and so locked, in. Text is taken as it is (it holds no NUL, which Postgres text cannot), anything else as
 * JSON behind a tag, each part ended by a NUL. Built by concatenation: JSON of a mapped array cost ~1 µs a row, and a
 * batch keys every effect of every event.
 */
const part = (value: Cell) => (typeof value === 'string' ? `s${value}\u0000` : `j${JSON.stringify(value)}\u0000`);

export function slotOf(values: readonly Cell[]): string {
  let slot = '';
  for (const value of values) slot += part(value);
  return slot;
}

function keyOf(row: Row, columns: readonly string[]): string {
  let slot = '';
  for (const column of columns) slot += part(row[column] ?? null);
  return slot;
}

/** A level of SlotNames: the next column's values, or the slots of the last column's. */
type Level = Map<Cell, Level | string>;

/**
 * The slots of one table's keys met in a fold, found by the key's values column by column. A batch keys every effect
 * of every event, most of them with a key met before (an agent's minute takes a row for each of its turns' metrics):
 * a lookup by values that each hash once cost ~110 ns a row in a loop, against ~460 to build the slot's text again.
 * Values the maps tell apart only by identity (a key of JSON objects) just miss, and their slot is built.
 */
class SlotNames {
  private readonly root: Level = new Map();

  constructor(private readonly columns: readonly string[]) {}

  of(row: Row): string {
    const { columns } = this;
    if (columns.length === 0) return '';
    let level = this.root;
    const last = columns.length - 1;
    for (let i = 0; i < last; i++) {
      const value = row[columns[i] as string] ?? null;
      let next = level.get(value);
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next as Level;
    }
    const value = row[columns[last] as string] ?? null;
    let slot = level.get(value) as string | undefined;
    if (slot === undefined) {
      slot = keyOf(row, columns);
      level.set(value, slot);
    }
    return slot;
  }
}

export type CounterRows = Map<string, Row>;

/**
 * One tenant's events of a batch, folded as they are decoded: a document's
 * facts merged, a register's highest precedence kept, a counter's rows
 * added up. A batch then holds its tenants' pending rows rather than its
 * events, which would otherwise live through every round trip of its
 * transaction (and cost the garbage collector a copy each time).
 */
export class TenantFold {
  /** Each event once, by dedupe key, with its record: folded again should some turn out applied before. */
  readonly records = new Map<string, LogRecord>();
  readonly documents = new Map<DocumentProjection<unknown>, Map<string, { key: Row; facts: unknown }>>();
  readonly registers = new Map<RegisterProjection, Map<string, Row>>();
  readonly counters = new Map<CounterProjection, CounterRows>();
  private readonly slots = new Map<{ key: readonly string[] }, SlotNames>();

  /**
   * @param shard The partition the batch's records are of (a batch is one partition's): a sharded counter's rows are
   *   keyed by it.
   */
  constructor(
    readonly tenantId: string,
    readonly shard: number,
  ) {}

  add(derived: Derived, record: LogRecord): void {
    if (this.records.has(derived.dedupeKey)) return;
    this.records.set(derived.dedupeKey, record);
    for (const effect of derived.effects) {
      if ('facts' in effect) {
        const { projection } = effect;
        const pending = slotsOf(this.documents, projection);
        const slot = this.slotOf(projection, effect.key);
        const mine = pending.get(slot);
        if (mine) mine.facts = projection.merge(mine.facts, effect.facts);
        else pending.set(slot, { key: effect.key, facts: effect.facts });
      } else if (effect.projection.kind === 'register') {
        const pending = slotsOf(this.registers, effect.projection);
        const slot = this.slotOf(effect.projection, effect.row);
        const mine = pending.get(slot);
        if (!mine || precedenceOf(effect.row) > precedenceOf(mine)) pending.set(slot, effect.row);
      } else {
        const { projection, row } = effect;
        if (projection.sharded) row.shard = this.shard;
        addCount(slotsOf(this.counters, projection), projection, row, this.slotOf(projection, row));
      }
    }
  }

  private slotOf(projection: { key: readonly string[] }, row: Row): string {
    let names = this.slots.get(projection);
    if (names === undefined) {
      names = new SlotNames(projection.key);
      this.slots.set(projection, names);
    }
    return names.of(row);
  }
}

function slotsOf<K, V>(byProjection: Map<K, Map<string, V>>, projection: K): Map<string, V> {
  let slots = byProjection.get(projection);
  if (!slots) {
    slots = new Map<string, V>();
    byProjection.set(projection, slots);
  }
  return slots;
}

/** A batch's records folded per tenant, with what could not be projected and what was erased. */
export interface FoldedBatch {
  tenants: Map<string, TenantFold>;
  poison: { record: LogRecord; poison: string }[];
  erased: number;
}

export function foldRecords(records: readonly LogRecord[], decode: (record: LogRecord) => Decoded): FoldedBatch {
  const folded: FoldedBatch = { tenants: new Map(), poison: [], erased: 0 };
  const shard = records[0]?.partition ?? 0;
  for (const record of records) {
    const decoded = decode(record);
    if ('poison' in decoded) folded.poison.push({ record, poison: decoded.poison });
    else if ('erased' in decoded) folded.erased += 1;
    else {
      const { tenantId } = decoded.derived;
      let fold = folded.tenants.get(tenantId);
      if (!fold) {
        fold = new TenantFold(tenantId, shard);
        folded.tenants.set(tenantId, fold);
      }
      fold.add(decoded.derived, record);
    }
  }
  return folded;
}

/** A copy of counter rows that can be added to without changing the fold (a failed transaction writes it again). */
export function copyCounters(rows: CounterRows, projection: CounterProjection): CounterRows {
  const copy: CounterRows = new Map();
  for (const [slot, row] of rows) {
    const fresh: Row = { ...row };
    for (const column in projection.merge) {
      const sketch = row[column];
      if (projection.merge[column] === 'sketch' && sketch) fresh[column] = copySketch(sketch as Sketch);
    }
    copy.set(slot, fresh);
  }
  return copy;
}

function addInto(into: Row, row: Row, merge: CounterProjection['merge']): void {
  for (const column in merge) {
    const rule = merge[column];
    const x = into[column] ?? null;
    const y = row[column] ?? null;
    if (y === null) continue;
    if (rule === 'sketch') {
      if (x === null) into[column] = sketchOf([Number(y)]);
      else addSample(x as Sketch, Number(y));
    } else if (x === null) into[column] = y;
    else if (rule === 'sum') into[column] = Number(x) + Number(y);
    else if (rule === 'min') into[column] = Math.min(Number(x), Number(y));
    else into[column] = Math.max(Number(x), Number(y));
  }
}

/** A derived row (a sketch column holds one sample) as a pending row (it holds their sketch). */
function pendingOf(row: Row, merge: CounterProjection['merge']): Row {
  const fresh: Row = { ...row };
  for (const column in merge) {
    const y = row[column] ?? null;
    fresh[column] = merge[column] === 'sketch' && y !== null ? sketchOf([Number(y)]) : y;
  }
  return fresh;
}

export function addCount(pending: CounterRows, projection: CounterProjection, row: Row, slot = keyOf(row, projection.key)): void {
  const mine = pending.get(slot);
  if (mine) addInto(mine, row, projection.merge);
  else pending.set(slot, pendingOf(row, projection.merge));
}
