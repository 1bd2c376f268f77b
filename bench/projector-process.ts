import type { EventLoopUtilization } from 'node:perf_hooks';
import { DataKeys, SecretBox } from '@earshot/auth';
import { openDatabase } from '@earshot/db';
import { createKafkaLog } from '@earshot/log';
import { dataKeyOptions, startProjector } from '@earshot/projector';
import { BatchRetries } from './batch-retries';
import { collectorPauses } from './collector-pauses';
import { onFirstBatch } from './first-batch';

/**
 * One projector process of `bench projector --processes N`, in the bench's
 * consumer group. Over IPC it says when its first batch arrives, and when
 * asked ("report") the events it has applied, the CPU it has used and the
 * share of the time its event loop was busy since that batch, its garbage
 * collector's pauses since then, its peak resident memory, and the batch
 * attempts it tried again; "stop" stops it.
 */
export type ProjectorMessage =
  { first: true } | { applied: number; cpuUs: number; loopBusy: number; gcMs: number; peakRssMb: number; retries: { count: number; first?: string } };

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (this file is started by bench/projector.ts)`);
  return value;
}

const send = (message: ProjectorMessage) => process.send?.(message);

const db = openDatabase({ url: required('BENCH_DATABASE_URL'), poolSize: 10, applicationName: 'bench-projector' });
const log = await createKafkaLog({ brokers: required('BENCH_KAFKA_BROKERS').split(','), clientId: 'bench-projector', namespace: required('BENCH_NAMESPACE') });
let cpuAtFirst: NodeJS.CpuUsage | undefined;
let loopAtFirst: EventLoopUtilization | undefined;
let applied = 0;
const pauses = collectorPauses();
const timedLog = onFirstBatch(log, () => {
  cpuAtFirst = process.cpuUsage();
  loopAtFirst = performance.eventLoopUtilization();
  pauses.start();
  send({ first: true });
});
const dataKeys = new DataKeys(db, new SecretBox(Buffer.from(required('BENCH_MASTER_KEY'), 'base64')));
const retries = new BatchRetries();
const projector = await startProjector({
  db,
  log: timedLog,
  ...dataKeyOptions(dataKeys),
  onRetry: (error) => retries.add(error),
  onBatch: (o) => (applied += o.applied + o.duplicates + o.deadLettered),
});

process.on('message', (message: unknown) => {
  if (message === 'report') {
    const cpu = process.cpuUsage(cpuAtFirst);
    send({
      applied,
      cpuUs: cpuAtFirst === undefined ? 0 : cpu.user + cpu.system,
      loopBusy: loopAtFirst === undefined ? 0 : performance.eventLoopUtilization(loopAtFirst).utilization,
      gcMs: loopAtFirst === undefined ? 0 : pauses.ms(),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      retries: retries.figures(),
    });
  } else if (message === 'stop') {
    void projector
      .stop()
      .then(() => log.close())
      .then(() => db.dispose())
      .then(() => process.exit(0));
  }
});
