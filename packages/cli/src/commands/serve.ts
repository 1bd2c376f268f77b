import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@earshot/config';
import { resolveTargets, startModules } from '@earshot/server';
import type { Logger } from '@earshot/telemetry';
import { composeTargets } from '../targets';
import { readDemoCredentials } from '../demo/demo-credentials';
import { DEMO_TENANT_MODULE } from '../demo/demo-tenant';
import { withOperatorToken } from '../demo/operator-token';
import { welcomeLines } from '../demo/welcome';
import { DEFAULT_OTLP_GRPC_PORT, DEFAULT_PORT, DEFAULT_PORT_TRIES, OTLP_HTTP_CONVENTIONAL_PORT, recordOrigin } from '../local-instance';

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Resolves on the first stop signal. Later signals are noted and ignored:
 * under a terminal, Ctrl-C reaches us twice (directly, and forwarded by npm),
 * and the second must not cut the drain short. SIGHUP counts: a closed
 * terminal must stop the embedded PostgreSQL too.
 */
function drainSignal(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    let draining = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (draining) return logger.info({ signal }, 'already draining');
      draining = true;
      logger.info({ signal }, 'draining');
      resolve();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  });
}

/** A port of the process: the one set (its holder is named if taken), or the first free one from `first`. */
interface PortChoice {
  port: number | undefined;
  first: number;
  /** What sets it, for the message when it is taken. */
  setBy: string;
  /** A port the scan passes over. */
  skip?: number;
}

/** The set port, or `first` or the next free port after it, as a second instance needs. */
async function listen(app: FastifyInstance, { port, first, setBy, skip }: PortChoice): Promise<string> {
  if (port !== undefined) {
    try {
      return await app.listen({ port, host: '0.0.0.0' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
        throw new Error(`port ${port} is in use by another process (it is set by ${setBy}; choose another)`, { cause: error });
      throw error;
    }
  }
  for (let candidate = first; ; candidate++) {
    if (candidate === skip) continue;
    try {
      return await app.listen({ port: candidate, host: '0.0.0.0' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || candidate === first + DEFAULT_PORT_TRIES - 1) throw error;
      app.log.warn(`port ${candidate} is taken; trying the next`);
    }
  }
}

/** `earshot serve`: the chosen services in this process until a stop signal, then a drain. */
export async function serve(values: { target: string; port?: string }): Promise<void> {
  const loaded = loadConfig({ ...process.env, ...(values.port ? { PORT: values.port } : {}) });
  // The zero-setup mode (no DATABASE_URL) asks for no operator token: it keeps one in the data directory.
  const { config, file: operatorTokenFile } = withOperatorToken(loaded, { generate: loaded.DATABASE_URL === undefined });
  const { runtime, modules } = composeTargets(config);
  const targets = (values.target ?? 'all')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  // Every process serves /health over whatever it runs, so http comes with any target; last, so it
  // stops first: a drain stops accepting and finishes in-flight requests while the log and database are still open.
  const ordered = resolveTargets([...targets, 'http'], modules);
  const stopping = drainSignal(runtime.logger);
  const running = await startModules(ordered, (line) => runtime.logger.info(line));

  let address: string;
  let grpcAddress: string | undefined;
  try {
    address = await listen(runtime.http(), { port: config.PORT, first: DEFAULT_PORT, setBy: 'PORT or --port' });
    // Only a process running a gRPC service (the gateway's OTLP/gRPC) opens the port; PORT=0 asks for any free ports.
    if (running.names.includes('grpc')) {
      const port = config.EARSHOT_OTLP_GRPC_PORT ?? (config.PORT === 0 ? 0 : undefined);
      grpcAddress = await listen(runtime.grpc(), { port, first: DEFAULT_OTLP_GRPC_PORT, setBy: 'EARSHOT_OTLP_GRPC_PORT', skip: OTLP_HTTP_CONVENTIONAL_PORT });
    }
  } catch (error) {
    await running.stop();
    throw error;
  }
  const origin = address.replace('0.0.0.0', '127.0.0.1');
  const grpcOrigin = grpcAddress?.replace('0.0.0.0', '127.0.0.1');
  const recorded = config.DATABASE_URL === undefined ? recordOrigin(config.EARSHOT_DATA_DIR, origin) : undefined;
  console.log(`Earshot ${targets.join(',')} listening on ${origin}`);
  if (grpcOrigin) console.log(`OTLP/gRPC (traces and metrics) on ${grpcOrigin}`);
  if (running.names.includes(DEMO_TENANT_MODULE) || operatorTokenFile) {
    const demo = running.names.includes(DEMO_TENANT_MODULE) ? readDemoCredentials(config.EARSHOT_DATA_DIR) : undefined;
    console.log(welcomeLines({ origin, grpcOrigin, demo, operatorTokenFile, dataDir: config.EARSHOT_DATA_DIR }).join('\n'));
  }

  await stopping;
  recorded?.forget();
  await running.stop();
}
