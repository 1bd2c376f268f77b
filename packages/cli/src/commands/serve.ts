import { parseArgs } from 'node:util';
import { loadConfig } from '@earshot/config';
import { resolveTargets, startModules } from '@earshot/server';
import type { CommandRunner } from '../main';
import { composeTargets } from '../targets';
import { readDemoCredentials } from '../demo/demo-credentials';
import { DEMO_TENANT_MODULE } from '../demo/demo-tenant';
import { withOperatorToken } from '../demo/operator-token';
import { welcomeLines } from '../demo/welcome';

/**
 * Resolves on the first SIGTERM or SIGINT. Later signals are noted and
 * ignored: under a terminal, Ctrl-C reaches us twice (directly, and forwarded
 * by npm), and the second must not cut the drain short.
 */
function drainSignal(): Promise<void> {
  return new Promise((resolve) => {
    let draining = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (draining) return console.error(`[earshot] ${signal}: already draining`);
      draining = true;
      console.error(`[earshot] ${signal}: draining`);
      resolve();
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

export const serveCommand: CommandRunner = {
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { target: { type: 'string', default: 'all' }, port: { type: 'string' } },
      strict: true,
    });
    const loaded = loadConfig({ ...process.env, ...(values.port ? { PORT: values.port } : {}) });
    // The zero-setup mode (no DATABASE_URL) asks for no operator token: it keeps one in the data directory.
    const { config, file: operatorTokenFile } = withOperatorToken(loaded, { generate: loaded.DATABASE_URL === undefined });
    const { runtime, modules } = composeTargets(config);
    const targets = (values.target ?? 'all').split(',').map((t) => t.trim()).filter(Boolean);
    // Every process serves /health over whatever it runs, so http comes with any target; last, so it
    // stops first: a drain stops accepting and finishes in-flight requests while the log and database are still open.
    const ordered = resolveTargets([...targets, 'http'], modules);
    const running = await startModules(ordered, (line) => console.error(`[earshot] ${line}`));

    let address: string;
    try {
      address = await runtime.http().listen({ port: config.PORT, host: '0.0.0.0' });
    } catch (error) {
      await running.stop();
      throw error;
    }
    const origin = address.replace('0.0.0.0', '127.0.0.1');
    console.log(`Earshot ${targets.join(',')} listening on ${origin}`);
    if (running.names.includes(DEMO_TENANT_MODULE) || operatorTokenFile) {
      const demo = running.names.includes(DEMO_TENANT_MODULE) ? readDemoCredentials(config.EARSHOT_DATA_DIR) : undefined;
      console.log(welcomeLines({ origin, demo, operatorTokenFile, dataDir: config.EARSHOT_DATA_DIR }).join('\n'));
    }

    await drainSignal();
    await running.stop();
    return 0;
  },
};
