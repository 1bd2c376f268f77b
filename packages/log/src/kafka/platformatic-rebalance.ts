import { GenericError, MultipleErrors } from '@platformatic/kafka';

/**
 * Whether the group refused a commit because it has moved on: a rebalance began or ended while the batch was handled
 * (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS, as the client's own autocommit tells them apart). The
 * batch was handled all the same; the partition's next owner reads on from the position committed before, this batch
 * again at worst, as the port allows.
 */
export function refusedByRebalance(error: unknown): boolean {
  if (error instanceof MultipleErrors) return error.findBy('needsRejoin', true) !== null;
  return error instanceof GenericError && error.findBy('needsRejoin', true) !== null;
}
