import { Socket } from 'node:net';

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

/**
 * This process's open TCP sockets, each as `local port → remote address:port`, so a socket left open can be told
 * apart: the broker's, Postgres's, or an HTTP peer's. Node lists its handles only through the undocumented
 * `_getActiveHandles`.
 */
export function openSockets(): Set<string> {
  const handles: unknown[] = Reflect.apply(Reflect.get(process, '_getActiveHandles') as () => unknown[], process, []);
  return new Set(
    handles
      .filter((h): h is Socket => h instanceof Socket && !h.destroyed)
      .map((s) => `${s.localPort ?? '?'} → ${s.remoteAddress ?? '?'}:${s.remotePort ?? '?'}`),
  );
}
