import { fallbackLogger } from '@earshot/telemetry';

/**
 * The projector's failed batch attempts, counted for the bench's line, and still logged as the projector logs them
 * when not told otherwise: a run that waited on a deadlock says so in its figures, not only in its output.
 */
export class BatchRetries {
  private count = 0;
  private first: string | undefined;

  add(error: unknown): void {
    this.count += 1;
    this.first ??= error instanceof Error ? error.message : String(error);
    fallbackLogger().warn({ err: error }, 'projector batch failed; retrying');
  }

  figures(): { count: number; first?: string } {
    return this.first === undefined ? { count: this.count } : { count: this.count, first: this.first };
  }
}
