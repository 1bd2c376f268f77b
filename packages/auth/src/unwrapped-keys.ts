/**
 * Data keys unwrapped by earlier lookups, by id with the wrapped bytes they
 * were opened from. A key never changes while it exists, so one the store
 * still answers with the same bytes is the same key, and the same Buffer is
 * handed out again: a reader's memo of opened values (repeated-seals, keyed
 * by that Buffer) then serves a call's later batches, where unwrapping each
 * batch's keys anew cost two AES-GCMs a key and opening every call block
 * again. Only what recent lookups answered is kept, a generation at a time:
 * a key erased, which the store never answers again, is forgotten within two.
 */
export class UnwrappedKeys {
  private current = new Map<string, { wrapped: Buffer; key: Buffer }>();
  private previous = new Map<string, { wrapped: Buffer; key: Buffer }>();

  constructor(private readonly perGeneration = 4_096) {}

  /** The key opened before from these wrapped bytes, or undefined. */
  get(id: string, wrapped: Buffer): Buffer | undefined {
    const entry = this.current.get(id) ?? this.previous.get(id);
    if (entry === undefined || !entry.wrapped.equals(wrapped)) return undefined;
    this.keep(id, entry);
    return entry.key;
  }

  set(id: string, wrapped: Buffer, key: Buffer): void {
    this.keep(id, { wrapped, key });
  }

  private keep(id: string, entry: { wrapped: Buffer; key: Buffer }): void {
    if (this.current.size >= this.perGeneration && !this.current.has(id)) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(id, entry);
  }
}
