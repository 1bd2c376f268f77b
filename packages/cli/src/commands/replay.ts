import { parseArgs } from 'node:util';
import { DataKeys, loadMasterKey, SecretBox } from '@earshot/auth';
import { loadConfig } from '@earshot/config';
import { rebuildReadModels } from '@earshot/projector';
import { resolveTargets, startModules } from '@earshot/server';
import type { CommandRunner } from '../command-runner';
import { composeTargets } from '../targets';
import { parseFrom } from './log-range';

/**
 * `earshot replay --from earliest|<ISO time>`: rebuilds every read model from
 * the log into fresh tables while the live ones keep serving, then swaps them
 * in one transaction. Progress goes to stderr, the summary to stdout.
 */
export const replayCommand: CommandRunner = {
  async run(args) {
    const { values } = parseArgs({ args, options: { from: { type: 'string', default: 'earliest' } }, strict: true });
    const from = parseFrom(values.from);
    const config = loadConfig();
    const { runtime, modules } = composeTargets(config);
    const running = await startModules(resolveTargets(['database', 'log'], modules));
    // The replay serves no HTTP, so it opens data keys with the master key itself rather than through the access module.
    const dataKeys = new DataKeys(runtime.database(), new SecretBox(loadMasterKey(config)));
    try {
      const summary = await rebuildReadModels({
        db: runtime.database(),
        log: runtime.log(),
        from,
        keys: (ids) => dataKeys.lookup(ids),
        onProgress: (p) =>
          process.stderr.write(
            `\r\x1b[2K[replay] ${p.phase}: ${p.events.toLocaleString('en-US')} events, ${p.eventsPerSecond.toLocaleString('en-US')} events/s, lag ${p.lag.toLocaleString('en-US')}`,
          ),
      });
      process.stderr.write('\n');
      console.log(
        [
          `replayed ${summary.events.toLocaleString('en-US')} records from ${from === 'earliest' ? 'the beginning of the log' : from.toISOString()} in ${summary.seconds.toFixed(1)} s (${summary.eventsPerSecond.toLocaleString('en-US')} records/s)`,
          `  applied ${summary.applied.toLocaleString('en-US')}, duplicates ${summary.duplicates.toLocaleString('en-US')}, dead-lettered ${summary.deadLettered.toLocaleString('en-US')}`,
          `  swapped in: ${summary.tables.join(', ')}`,
        ].join('\n'),
      );
      return 0;
    } finally {
      await running.stop();
    }
  },
};
