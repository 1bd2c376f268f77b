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

interface Visit {
  value: unknown;
  path: readonly string[];
  depth: number;
}

/**
 * What in a parsed JSON value breaks the bounds above or the stored-text
 * rule, by path (`call.provider_call_id`), found with an explicit stack
 * rather than recursion, so no nesting can exhaust the call stack.
 */
export function jsonShapeIssues(value: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const report = (path: readonly string[], message: string) => issues.push({ path: path.join('.') || '(body)', message });
  const stack: Visit[] = [{ value, path: [], depth: 0 }];
  for (let next = stack.pop(); next && issues.length < MAX_ISSUES; next = stack.pop()) {
    const { value: node, path, depth } = next;
    if (typeof node === 'string') {
      if (node.length > JSON_LIMITS.maxStringChars) report(path, `longer than ${JSON_LIMITS.maxStringChars} characters`);
      else if (!isStorableText(node)) report(path, 'holds a NUL character or an unpaired surrogate');
    } else if (typeof node === 'number') {
      if (!Number.isFinite(node)) report(path, 'a number beyond the range of a double');
    } else if (typeof node === 'object' && node !== null) {
      if (depth >= JSON_LIMITS.maxDepth) {
        report(path, `nested deeper than ${JSON_LIMITS.maxDepth} levels`);
        continue;
      }
      const entries = Array.isArray(node) ? node.map((item, index) => [String(index), item] as const) : Object.entries(node);
      for (const [key, item] of entries) {
        const shown = storableText(key, PATH_KEY_CHARS);
        if (key.length > JSON_LIMITS.maxKeyChars) report([...path, `${shown}…`], `a key longer than ${JSON_LIMITS.maxKeyChars} characters`);
        else if (!isStorableText(key)) report([...path, shown], 'a key holding a NUL character or an unpaired surrogate');
        else stack.push({ value: item, path: [...path, key], depth: depth + 1 });
      }
    }
  }
  return issues;
}
