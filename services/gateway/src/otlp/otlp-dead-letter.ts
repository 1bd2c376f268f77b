/** A dead letter is one log message: a body beyond this is kept by its head (Kafka takes about 1 MB a message). */
const DEAD_LETTER_BODY_BYTES = 256 * 1024;

/** The bytes a dead letter keeps of a body, and its reason saying when they are not all of it. */
export function deadLetterBody(raw: Buffer, reason: string): { raw: Buffer; reason: string } {
  if (raw.length <= DEAD_LETTER_BODY_BYTES) return { raw, reason };
  return { raw: raw.subarray(0, DEAD_LETTER_BODY_BYTES), reason: `${reason} (body kept to its first ${DEAD_LETTER_BODY_BYTES} of ${raw.length} bytes)` };
}
