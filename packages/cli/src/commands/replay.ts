import { DataKeys, masterSecretBox } from '@earshot/auth';
import { loadConfig } from '@earshot/config';
import { rebuildReadModels } from '@earshot/projector';
import { resolveTargets, startModules } from '@earshot/server';
import { progressBar } from '../cli/progress';
import { say } from '../cli/output';
import { composeTargets } from '../targets';
import { parseFrom } from './log-range';

/**
 * `earshot replay --from earliest|<ISO time>`: rebuilds every read model from
 * the log into fresh tables while the live ones keep serving, then swaps them
 * in one transaction. Progress goes to stderr, the summary to stdout.
 */
export async function replay(values: { from: string }): Promise<void> {
  const from = parseFrom(values.from);
  const config = loadConfig();
  const { runtime, modules } = composeTargets(config);
  const running = await startModules(resolveTargets(['database', 'log'], modules));
  // The replay serves no HTTP, so it opens data keys with the master key itself rather than through the access module.
  const dataKeys = new DataKeys(runtime.database(), masterSecretBox(config));
  // The total is what is read plus what is still behind: it grows while the live log grows.
  const bar = progressBar('[replay]', 'events', 0);
  try {
    const summary = await rebuildReadModels({
      db: runtime.database(),
      log: runtime.log(),
      from,
      keys: (ids) => dataKeys.lookup(ids),
      erasedCalls: (calls) => dataKeys.erasedCalls(calls),
      erasedSince: (tx, since) => DataKeys.erasedSince(tx, since),
      onProgress: (p) => bar.update(p.events, p.events + p.lag, p.phase),
    });
    bar.stop();
    say(
      [
        `replayed ${summary.events.toLocaleString('en-US')} records from ${from === 'earliest' ? 'the beginning of the log' : from.toISOString()} in ${summary.seconds.toFixed(1)} s (${summary.eventsPerSecond.toLocaleString('en-US')} records/s)`,
        `  applied ${summary.applied.toLocaleString('en-US')}, duplicates ${summary.duplicates.toLocaleString('en-US')}, dead-lettered ${summary.deadLettered.toLocaleString('en-US')}`,
        `  swapped in: ${summary.tables.join(', ')}`,
      ].join('\n'),
    );
  } finally {
    bar.stop();
    await running.stop();
  }
}
