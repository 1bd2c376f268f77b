import type { EventType } from '@earshot/contracts';
import { isObject } from './avro-json';
import { isSealed, names, openValue, openWith, sealedWith, sealValue, UnreadableSealedValue, type DataKey, type KeyLookup } from './field-sealing';
import { openRepeated, sealRepeated } from './repeated-seals';

/**
 * The fields of each event type that hold personal data or free text, sealed
 * before append with the data key of the event's call (or of its tenant, for
 * events about no call), so destroying the key erases them from the log
 * without rewriting it. Paths name fields of the Avro record; `{}` is every
 * value of a map. JSON-valued fields are sealed as their JSON text. What is
 * left in the clear (ids, times, types, enums, numbers, model names) is what
 * the read models count and join by.
 */
const EVERY_EVENT = ['call.from_number', 'call.to_number', 'call.customer_id', 'call.metadata{}', 'extensions'] as const;

const OWN_FIELDS: Readonly<Record<EventType, readonly string[]>> = {
  'call.started': [],
  'call.ringing': [],
  'call.answered': [],
  'call.ended': [],
  'call.transferred': ['data.to', 'data.reason'],
  'call.failed': ['data.message'],
  'call.completed': ['data.summary', 'data.recording_url', 'data.structured_data'],
  'call.abandoned': [],
  'audio.stream.started': [],
  'audio.stream.stopped': [],
  'transcript.partial': ['data.text'],
  'transcript.final': ['data.text'],
  'agent.response.generated': ['data.text'],
  'tool.call.started': ['data.arguments'],
  'tool.call.completed': ['data.arguments', 'data.result'],
  'tool.call.failed': ['data.arguments', 'data.error'],
  'workflow.state.changed': [],
  'handoff.initiated': ['data.target', 'data.reason'],
  'handoff.completed': ['data.target', 'data.reason'],
  'recording.available': ['data.url'],
  'customer.feedback.submitted': ['data.comment'],
  'provider.error.received': ['data.message'],
  'outcome.recorded': ['data.value'],
  'incident.created': ['data.description'],
  'incident.updated': ['data.description', 'data.note'],
  'deployment.recorded': ['data.description'],
  'alert.fired': [],
  'alert.resolved': [],
  'alert.rule.changed': ['data.description'],
  'invoice.issued': [],
  'billing.plan.changed': [],
};

/** Every sealed field of an event type, as a data team's export lists them. */
export function sealedFieldsOf(type: EventType): readonly string[] {
  return [...EVERY_EVENT, ...OWN_FIELDS[type]];
}

/** The call block's fields: the same on every event of a call, so each of its values is sealed and opened once (repeated-seals). */
const REPEATED = new Set<string>(EVERY_EVENT.filter((path) => path.startsWith('call.')));

/** Where an event holds what was said on its call: the one path of each type that has one. */
export const CONVERSATION_TEXT = 'data.text';

/**
 * Fields the read models keep as they came and never compute on: what was said (most of a call's events, and most of
 * its sealed bytes) and a tool call's arguments, result and error. The projector, which needs none of them, leaves them
 * sealed; the query service opens what it answers, what was said, for the tenant reading a call.
 */
const KEPT_SEALED: Partial<Record<EventType, readonly string[]>> = {
  'transcript.partial': [CONVERSATION_TEXT],
  'transcript.final': [CONVERSATION_TEXT],
  'agent.response.generated': [CONVERSATION_TEXT],
  'tool.call.started': ['data.arguments'],
  'tool.call.completed': ['data.arguments', 'data.result'],
  'tool.call.failed': ['data.arguments', 'data.error'],
};

/** How a reader opens an event's sealed fields. */
export interface OpenOptions {
  /** The projector's reading: the fields the read models keep sealed stay so, the rest open. */
  leaveKeptSealed?: boolean;
}

type Change = (value: string, path: string, repeated: boolean, keptSealed: boolean) => string | undefined;

/**
 * A sealed path taken apart once per event type (an event is sealed on every
 * append): the record keys down to its parent and its last key; for a map's
 * values, the prefix of each value's path.
 */
interface SealedPath {
  path: string;
  parents: readonly string[];
  last: string;
  mapPrefix: string | undefined;
  repeated: boolean;
  keptSealed: boolean;
}

const PATHS = new Map<EventType, readonly SealedPath[]>();

function sealedPathsOf(type: EventType): readonly SealedPath[] {
  let paths = PATHS.get(type);
  if (paths === undefined) {
    paths = sealedFieldsOf(type).map((path) => {
      const map = path.endsWith('{}');
      const names = (map ? path.slice(0, -2) : path).split('.');
      return {
        path,
        parents: names.slice(0, -1),
        last: names[names.length - 1] as string,
        mapPrefix: map ? `${path.slice(0, -2)}.` : undefined,
        repeated: REPEATED.has(path),
        keptSealed: KEPT_SEALED[type]?.includes(path) ?? false,
      };
    });
    PATHS.set(type, paths);
  }
  return paths;
}

/**
 * Applies `change` to each string at the type's sealed paths of an Avro record value, in place; undefined leaves a
 * value as it is. A map is changed in a copy when `copyMaps`: an encoded value shares plain maps with the caller's
 * event, which sealing must leave as it was; a decoded one is the reader's own.
 */
function eachSealedField(type: EventType, record: Record<string, unknown>, change: Change, copyMaps: boolean): void {
  for (const { path, parents, last, mapPrefix, repeated, keptSealed } of sealedPathsOf(type)) {
    let parent: unknown = record;
    for (const name of parents) parent = isObject(parent) ? parent[name] : undefined;
    if (!isObject(parent)) continue;
    if (mapPrefix !== undefined) {
      const map = parent[last];
      if (!isObject(map)) continue;
      const changed = copyMaps ? { ...map } : map;
      for (const key in changed) {
        const value = changed[key];
        if (typeof value === 'string') changed[key] = change(value, mapPrefix + key, repeated, keptSealed) ?? value;
      }
      parent[last] = changed;
    } else {
      const value = parent[last];
      if (typeof value === 'string') parent[last] = change(value, path, repeated, keptSealed) ?? value;
    }
  }
}

export function sealRecord(type: EventType, record: Record<string, unknown>, key: DataKey): void {
  eachSealedField(type, record, (value, path, repeated) => (repeated ? sealRepeated : sealValue)(value, key, path), true);
}

/** Opens what the keys open; values sealed with a key not held stay sealed. */
export function openRecord(type: EventType, record: Record<string, unknown>, keys: KeyLookup, { leaveKeptSealed = false }: OpenOptions = {}): void {
  // An event's fields are sealed with one key: it is looked up for the first, and the rest are checked to name it too.
  let keyId: string | undefined;
  let key: Buffer | undefined;
  eachSealedField(
    type,
    record,
    (value, path, repeated, keptSealed) => {
      if (!isSealed(value) || (keptSealed && leaveKeptSealed)) return undefined;
      if (keyId === undefined || !names(value, keyId)) {
        keyId = sealedWith(value);
        // Not a sealed value after all: openValue says so.
        if (keyId === undefined) return openValue(value, keys, path);
        key = keys(keyId);
      }
      if (key === undefined) return undefined;
      return (repeated ? openRepeated : openWith)(value, keyId, key, path);
    },
    false,
  );
}

/**
 * Conversation text as a read model keeps it, for the tenant whose keys these are: opened when sealed. Text that does not
 * open with them is answered as stored: an event sent in the clear may hold words that only look sealed.
 */
export function openConversationText(value: string, keys: KeyLookup): string {
  if (sealedWith(value) === undefined) return value;
  try {
    return openValue(value, keys, CONVERSATION_TEXT) ?? value;
  } catch (error) {
    if (error instanceof UnreadableSealedValue) return value;
    throw error;
  }
}

/** The paths of the event's fields that are still sealed (its key not held), for exports to say so. */
export function stillSealed(type: EventType, record: Record<string, unknown>): string[] {
  const found: string[] = [];
  eachSealedField(
    type,
    record,
    (value, path) => {
      if (isSealed(value)) found.push(path);
      return undefined;
    },
    false,
  );
  return found;
}
