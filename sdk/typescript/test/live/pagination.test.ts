import { describe, expect, it } from 'vitest';
import type { Call, Page } from '../../src/index.js';
import { callEvents, client, eventually, unique } from './target.js';

describe('lists', () => {
  it('[pagination] iterates every call across pages of 7, each once, in the server order; firstPage/nextPage give the same pages', async () => {
    const earshot = client();
    const agentId = unique('agent_pages');
    await earshot.ingest.send(Array.from({ length: 23 }, (_, i) => callEvents(`${agentId}-${i}`, agentId, Date.now() - 3_600_000 + i * 60_000)).flat());
    await eventually(async () => ((await earshot.calls.list({ agentId, limit: 100 }).toArray()).length === 23 ? true : undefined), '23 calls');

    const iterated: Call[] = [];
    for await (const call of earshot.calls.list({ agentId, limit: 7 })) iterated.push(call);
    expect(iterated).toHaveLength(23);
    expect(new Set(iterated.map((c) => c.id)).size).toBe(23);
    const startedAt = iterated.map((c) => c.startedAt);
    expect(startedAt).toEqual([...startedAt].sort().reverse());

    const pages: Page<Call>[] = [];
    let page: Page<Call> | null = await earshot.calls.list({ agentId, limit: 7 }).firstPage();
    while (page) {
      pages.push(page);
      page = await page.nextPage();
    }
    expect(pages.map((p) => p.items.length)).toEqual([7, 7, 7, 2]);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    expect(pages.at(-1)?.hasNextPage()).toBe(false);
    expect(pages.flatMap((p) => p.items.map((c) => c.id))).toEqual(iterated.map((c) => c.id));
  });
});
