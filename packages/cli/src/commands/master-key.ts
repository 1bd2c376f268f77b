import { AUTH_SEALED_COLUMNS, loadMasterKey, loadPreviousMasterKey, rotateMasterKey, SecretBox } from '@earshot/auth';
import { loadConfig } from '@earshot/config';
import { PROVIDER_CONNECTION_SEALED_COLUMNS } from '@earshot/provider-connections';
import { resolveTargets, startModules } from '@earshot/server';
import { say } from '../cli/output';
import { progressBar, type Progress } from '../cli/progress';
import { composeTargets } from '../targets';

/**
 * `earshot keys rotate-master`: re-wraps everything sealed under the
 * previous master key (EARSHOT_MASTER_KEY_PREVIOUS) under the new one
 * (EARSHOT_MASTER_KEY): tenants' data keys, webhook secrets and provider
 * credentials. The log is not rewritten. Safe to stop and run again;
 * without a previous key it checks that everything opens under the master key.
 */
export async function rotateMaster(options: { batchSize: number }): Promise<void> {
  const config = loadConfig();
  const next = loadMasterKey(config);
  // Without a previous key there is nothing to re-wrap: the run checks that every value opens under the master key.
  const previous = loadPreviousMasterKey(config) ?? next;
  const { runtime, modules } = composeTargets(config);
  const running = await startModules(resolveTargets(['database'], modules));
  let bar: Progress | undefined;
  try {
    const done = await rotateMasterKey(runtime.database(), [...AUTH_SEALED_COLUMNS, ...PROVIDER_CONNECTION_SEALED_COLUMNS], {
      from: new SecretBox(previous),
      to: new SecretBox(next),
      batchSize: options.batchSize,
      onProgress: (p) => {
        if (p.rows === 0) {
          bar?.stop();
          bar = progressBar(`[${p.table}]`, 'rows', p.total);
        }
        bar?.update(p.rows, p.total, `${p.rewrapped} re-wrapped`);
      },
    });
    bar?.stop();
    for (const table of done) say(`${table.table}: ${table.rows} rows, ${table.rewrapped} values re-wrapped, ${table.current} already under the new key`);
    say(
      previous === next
        ? 'every value opens under EARSHOT_MASTER_KEY'
        : 'every value opens under EARSHOT_MASTER_KEY: unset EARSHOT_MASTER_KEY_PREVIOUS and restart the processes',
    );
  } finally {
    bar?.stop();
    await running.stop();
  }
}
