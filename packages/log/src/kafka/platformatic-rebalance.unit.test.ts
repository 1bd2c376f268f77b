import { NetworkError, ProtocolError, ResponseError } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { refusedByRebalance } from './platformatic-rebalance';

/** OffsetCommit's API key, and the version the client sends. */
const OFFSET_COMMIT = 8;

/** The client's own error for a commit the broker answered with this error code on one partition. */
const refused = (code: number) => new ResponseError(OFFSET_COMMIT, 9, { '/topics/0/partitions/0': [code, null] }, {});

describe('refusedByRebalance', () => {
  it('tells a commit the group refused as it rebalanced from every other failure', () => {
    // ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS: the client's autocommit rejoins on these.
    for (const code of [22, 25, 27]) expect(refusedByRebalance(refused(code)), `code ${code}`).toBe(true);
    expect(refusedByRebalance(new ProtocolError('ILLEGAL_GENERATION'))).toBe(true);
    // COORDINATOR_NOT_AVAILABLE, OFFSET_METADATA_TOO_LARGE: not the group moving on.
    for (const code of [15, 12]) expect(refusedByRebalance(refused(code)), `code ${code}`).toBe(false);
    expect(refusedByRebalance(new NetworkError('connection closed'))).toBe(false);
    expect(refusedByRebalance(new Error('ILLEGAL_GENERATION'))).toBe(false);
  });
});
