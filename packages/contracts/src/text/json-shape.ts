import type { FieldIssue } from '../errors';
import { MAX_TEXT_CHARS, isStorableText, storableText } from './stored-text';

/**
 * Bounds on any JSON a client sends, on every route. The contracts nest at
 * most five levels; 32 leaves room for what senders add without letting a
 * body reach the recursion limits of the runtime (a 5,000-deep item was a 500).
 */
export const JSON_LIMITS = {
  maxDepth: 32,
  /** Characters in one string value. */
  maxStringChars: MAX_TEXT_CHARS,
  /** Characters in one object key. */
  maxKeyChars: 256,
  /** Bytes of JSON the fields a contract does not know may take in one event (kept as the event's extensions). */
  maxUnknownFieldBytes: 16_384,
} as const;

/** Issues past this many are not looked for: the answer names enough to fix, and the walk stays short. */
const MAX_ISSUES = 10;
/** How much of a key a path shows. */
const PATH_KEY_CHARS = 64;

/** An object or array being walked: its keys are taken one at a time, so the walk needs no recursion. */
interface Frame {
  node: object;
  /** An object's keys; undefined for an array, whose indexes are walked instead. */
  keys: string[] | undefined;
  length: number;
  next: number;
  /** Where the frame sits, for a path: the frame holding it and its key there. */
  parent: Frame | undefined;
  key: string;
  depth: number;
}

/**
 * What in a parsed JSON value breaks the bounds above or the stored-text
 * rule, by path (`call.provider_call_id`), in document order. The walk keeps
 * its own stack, so no nesting can exhaust the call stack, and builds a path
 * only for an issue: it runs on every body and every envelope, and a body
 * within the bounds should cost no allocation per value.
 */
export function jsonShapeIssues(value: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const report = (at: Frame | undefined, key: string | undefined, message: string) => issues.push({ path: pathOf(at, key), message });
  const root = leafIssue(value);
  if (root !== undefined) report(undefined, undefined, root);
  if (typeof value !== 'object' || value === null) return issues;
  const stack: Frame[] = [frame(value, undefined, '', 0)];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const top = stack[stack.length - 1] as Frame;
    if (top.next === top.length) {
      stack.pop();
      continue;
    }
    const index = top.next++;
    const key = top.keys === undefined ? String(index) : (top.keys[index] as string);
    if (top.keys !== undefined) {
      if (key.length > JSON_LIMITS.maxKeyChars) {
        report(top, `${storableText(key, PATH_KEY_CHARS)}…`, `a key longer than ${JSON_LIMITS.maxKeyChars} characters`);
        continue;
      }
      if (!isStorableText(key)) {
        report(top, storableText(key, PATH_KEY_CHARS), 'a key holding a NUL character or an unpaired surrogate');
        continue;
      }
    }
    const item: unknown = (top.node as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null) {
      if (top.depth + 1 >= JSON_LIMITS.maxDepth) report(top, key, `nested deeper than ${JSON_LIMITS.maxDepth} levels`);
      else stack.push(frame(item, top, key, top.depth + 1));
      continue;
    }
    const issue = leafIssue(item);
    if (issue !== undefined) report(top, key, issue);
  }
  return issues;
}

function frame(node: object, parent: Frame | undefined, key: string, depth: number): Frame {
  const keys = Array.isArray(node) ? undefined : Object.keys(node);
  return { node, keys, length: keys === undefined ? (node as unknown[]).length : keys.length, next: 0, parent, key, depth };
}

function leafIssue(value: unknown): string | undefined {
  if (typeof value === 'string') {
    if (value.length > JSON_LIMITS.maxStringChars) return `longer than ${JSON_LIMITS.maxStringChars} characters`;
    if (!isStorableText(value)) return 'holds a NUL character or an unpaired surrogate';
  } else if (typeof value === 'number' && !Number.isFinite(value)) return 'a number beyond the range of a double';
  return undefined;
}

/** `call.provider_call_id`: the keys from the body down to `key` inside `at`; `(body)` for the body itself. */
function pathOf(at: Frame | undefined, key: string | undefined): string {
  const keys = key === undefined ? [] : [key];
  for (let frame = at; frame?.parent !== undefined; frame = frame.parent) keys.push(frame.key);
  return keys.reverse().join('.') || '(body)';
}
