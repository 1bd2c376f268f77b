/** What keeps this process's event loop alive now (servers, sockets, child processes, timers), counted by kind. */
export function runningHandles(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** The kinds of which more run now than before, each with how many more: `TCPServerWrap ×1`. */
export function leftRunning(before: ReadonlyMap<string, number>, now: ReadonlyMap<string, number>): string[] {
  return [...now].flatMap(([kind, count]) => {
    const more = count - (before.get(kind) ?? 0);
    return more > 0 ? [`${kind} ×${more}`] : [];
  });
}
