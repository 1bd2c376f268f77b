import { describe, expect, it } from 'vitest';
import { leftRunning } from './left-running';

describe('leftRunning', () => {
  it('names each kind of which more run now, with how many more', () => {
    const before = new Map([
      ['TCPSocketWrap', 2],
      ['Timeout', 1],
    ]);
    const now = new Map([
      ['TCPSocketWrap', 2],
      ['Timeout', 3],
      ['ProcessWrap', 1],
    ]);
    expect(leftRunning(before, now)).toEqual(['Timeout ×2', 'ProcessWrap ×1']);
  });

  it('names nothing when everything started since was stopped, or more was stopped than started', () => {
    expect(leftRunning(new Map([['TCPServerWrap', 2]]), new Map([['TCPServerWrap', 1]]))).toEqual([]);
    expect(leftRunning(new Map(), new Map())).toEqual([]);
  });
});
