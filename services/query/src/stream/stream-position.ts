import { z } from 'zod';
import { ApiError } from '@earshot/contracts';
import { TOPICS, type LogPosition } from '@earshot/log';

/** Where a stream client is in the events topic: the offset of the last record it has passed, per partition. */
export type StreamPosition = ReadonlyMap<number, bigint>;

// -1: nothing passed yet in an empty partition.
const TokenSchema = z.record(z.string().regex(/^\d{1,5}$/), z.string().regex(/^-?\d{1,20}$/));

/** Opaque to clients (base64url of partition → offset), so its contents can change without breaking them. */
export function encodePosition(position: StreamPosition): string {
  return Buffer.from(JSON.stringify(Object.fromEntries([...position].map(([p, o]) => [String(p), o.toString()])))).toString('base64url');
}

export function decodePosition(token: string): StreamPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const checked = TokenSchema.safeParse(parsed);
  if (!checked.success)
    throw new ApiError('VALIDATION_ERROR', 'after is not a position this stream gave out: pass the last message’s position unchanged', {
      fields: [{ path: 'query.after', message: 'invalid position' }],
    });
  return new Map(Object.entries(checked.data).map(([p, o]) => [Number(p), BigInt(o)]));
}

/** The log positions to subscribe from: the last record passed per partition. */
export function logPositions(position: StreamPosition): LogPosition[] {
  return [...position].map(([partition, offset]) => ({ topic: TOPICS.events, partition, offset: offset.toString() }));
}

/** True when `position` has passed every record below `ends` (the next offsets to be written). */
export function reaches(position: StreamPosition, ends: ReadonlyMap<number, bigint>): boolean {
  return [...ends].every(([partition, end]) => end === 0n || (position.get(partition) ?? -1n) >= end - 1n);
}
