import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { choosePort, freePort, lastLines, processAlive } from '@earshot/db';
import { waitForPort } from './process';

/** A single-node Apache Kafka broker in KRaft mode, run from Maven Central's jars. */
const KAFKA_VERSION = '3.9.1';

export interface KafkaPaths {
  cacheDir: string;
  stateDir: string;
  /** The broker's port when EARSHOT_INFRA_KAFKA_PORT sets it (the controller takes the next one); unset, two free ports are chosen. */
  port: number | undefined;
  /**
   * Set, a broker started anew begins on an empty log: every test and bench
   * names topics of its own, so an earlier run's records are never read again,
   * and kept they only grow (21 GB after two days of benches here).
   */
  disposable?: boolean;
  /**
   * Set, the broker runs on C1 and the serial collector: a test run's broker moves little data, and C2's compiler threads
   * and G1's cost it more CPU than they save (a third less over the log and projector suites). Benchmarks leave it unset,
   * so their figures are the server JVM's.
   */
  lean?: boolean;
}

interface KafkaPorts {
  broker: number;
  controller: number;
}

/** The ports of this state folder's broker, kept beside it so a later run finds the broker it left running. */
function portsFile(stateDir: string): string {
  return join(stateDir, 'kafka.ports');
}

function recordedPorts(stateDir: string): KafkaPorts | undefined {
  if (!existsSync(portsFile(stateDir))) return undefined;
  const [broker, controller] = readFileSync(portsFile(stateDir), 'utf8').trim().split(/\s+/).map(Number);
  return broker && controller ? { broker, controller } : undefined;
}

async function choosePorts(paths: KafkaPaths): Promise<KafkaPorts> {
  const previous = recordedPorts(paths.stateDir);
  const variable = 'EARSHOT_INFRA_KAFKA_PORT (the controller takes the port after it)';
  const broker = await choosePort({ explicit: paths.port, variable, previous: previous?.broker, service: 'Kafka' });
  const controller = await choosePort({
    explicit: paths.port === undefined ? undefined : paths.port + 1,
    variable,
    previous: previous?.controller,
    service: "Kafka's controller",
  });
  if (broker === controller) return { broker, controller: await freePort() };
  return { broker, controller };
}

const pomDir = new URL('./kafka/', import.meta.url).pathname;

function jarsDir(cacheDir: string): string {
  return join(cacheDir, `kafka-${KAFKA_VERSION}`, 'libs');
}

/** Maven fetches the broker once; later runs reuse the cache (and work offline). */
function ensureKafkaJars(cacheDir: string, log: (line: string) => void): string {
  const dir = jarsDir(cacheDir);
  const marker = join(dir, '.complete');
  if (existsSync(marker)) return dir;
  log(`fetching Apache Kafka ${KAFKA_VERSION} from Maven Central into ${dir} (first run only)`);
  mkdirSync(dir, { recursive: true });
  const mvn = spawnSync(
    'mvn',
    ['-q', '-B', '-Dstyle.color=never', '-f', join(pomDir, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${dir}`, '-DincludeScope=runtime'],
    { stdio: ['ignore', process.stderr, 'inherit'] },
  );
  if (mvn.status !== 0) throw new Error(`mvn could not fetch Kafka ${KAFKA_VERSION} (exit ${mvn.status}); is Maven installed and Maven Central reachable?`);
  if (!readdirSync(dir).some((f) => f.startsWith('kafka_2.13-'))) throw new Error(`mvn ran but no kafka_2.13 jar is in ${dir}`);
  writeFileSync(marker, `${KAFKA_VERSION}\n`);
  return dir;
}

function serverProperties(dataDir: string, { broker: port, controller: controllerPort }: KafkaPorts): string {
  return [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${dataDir}`,
    'num.partitions=3',
    // One broker: internal topics cannot be replicated, and fewer partitions make group joins fast.
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=8',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=4',
    'group.initial.rebalance.delay.ms=0',
    'auto.create.topics.enable=false',
    'delete.topic.enable=true',
    '',
  ].join('\n');
}

function java(jars: string, args: string[], heap: string[]) {
  return ['-cp', `${jars}/*`, ...heap, '-Dlog4j.configuration=file:' + new URL('./kafka/log4j.properties', import.meta.url).pathname, ...args];
}

export interface StartedBroker {
  brokers: string;
  /** False when a broker from an earlier run was reused. */
  fresh: boolean;
}

/** The broker's log folder under the state folder, emptied first for a disposable broker. */
export function brokerDataDir(paths: Pick<KafkaPaths, 'stateDir' | 'disposable'>): string {
  const dataDir = join(paths.stateDir, 'kafka-data');
  if (paths.disposable) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  return dataDir;
}

/** Starts the broker detached, so it outlives this process; `stopKafka` ends it. */
export async function startKafka(paths: KafkaPaths, log: (line: string) => void): Promise<StartedBroker> {
  const running = runningBroker(paths.stateDir);
  const kept = recordedPorts(paths.stateDir);
  if (running !== undefined && kept) {
    await waitForPort(kept.broker, 60_000);
    return { brokers: `127.0.0.1:${kept.broker}`, fresh: false };
  }
  const jars = ensureKafkaJars(paths.cacheDir, log);
  const dataDir = brokerDataDir(paths);
  const ports = await choosePorts(paths);
  const brokers = `127.0.0.1:${ports.broker}`;
  const config = join(paths.stateDir, 'server.properties');
  writeFileSync(config, serverProperties(dataDir, ports));
  if (!existsSync(join(dataDir, 'meta.properties'))) {
    const format = spawnSync('java', java(jars, ['kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', config], []), { encoding: 'utf8' });
    if (format.status !== 0)
      throw new Error(
        `formatting Kafka storage failed (${format.error?.message ?? `exit ${format.status}`}): ${lastLines(`${format.stderr}\n${format.stdout}`)}`,
      );
  }
  log(`starting Kafka ${KAFKA_VERSION} (KRaft) on ${brokers}`);
  const logFile = join(paths.stateDir, 'kafka.log');
  const out = openSync(logFile, 'a');
  const jvm = ['-Xms256m', '-Xmx1g', ...(paths.lean ? ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] : [])];
  const child = spawn('java', java(jars, ['kafka.Kafka', config], jvm), {
    detached: true,
    stdio: ['ignore', out, out],
  });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start java for Kafka: ${(await spawnError).message}`);
  writeFileSync(join(paths.stateDir, 'kafka.pid'), String(child.pid));
  writeFileSync(portsFile(paths.stateDir), `${ports.broker} ${ports.controller}\n`);
  // A JVM cold start on two busy cores has taken over 90 s; the wait ends early if the process dies.
  await waitForPort(ports.broker, 240_000, () => processAlive(child.pid ?? 0), logFile);
  return { brokers, fresh: true };
}

/** The process of the broker under `stateDir`, while it runs. */
export function runningBroker(stateDir: string): number | undefined {
  const pidFile = join(stateDir, 'kafka.pid');
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  return processAlive(pid) ? pid : undefined;
}

export async function stopKafka(stateDir: string): Promise<boolean> {
  const pid = runningBroker(stateDir);
  if (pid === undefined) return false;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 300 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  return true;
}

/**
 * KRaft wants a base64url UUID; any random 16 bytes will do for a local cluster,
 * except those whose text begins with '-', which the storage tool reads as an
 * option (one draw in 64). Kafka's own `Uuid.randomUuid` draws again for the same reason.
 */
export function clusterId(draw: () => Uint8Array = () => crypto.getRandomValues(new Uint8Array(16))): string {
  for (;;) {
    const id = Buffer.from(draw()).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}
