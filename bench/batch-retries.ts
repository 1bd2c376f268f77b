/**
 * The projector's failed batch attempts (its onRetry, in place of its warning for each), counted for the bench's line:
 * a run that waited on a deadlock says so in its figures, and the report names the first one's error.
 */
export class BatchRetries {
  private count = 0;
  private first: string | undefined;

  add(error: unknown): void {
    this.count += 1;
    this.first ??= error instanceof Error ? error.message : String(error);
  }

  figures(): { count: number; first?: string } {
    return { count: this.count, first: this.first };
  }
}
