import type { EventLoopUtilization } from 'node:perf_hooks';
import { DataKeys, SecretBox } from '@earshot/auth';
import { openDatabase } from '@earshot/db';
import { createKafkaLog } from '@earshot/log';
import { dataKeyOptions, startProjector } from '@earshot/projector';
import { BatchRetries } from './batch-retries';
import { collectorPauses } from './collector-pauses';
import { onGroupSettled } from './group-settled';

/**
 * One projector process of `bench projector --processes N`, in the bench's
 * consumer group. Over IPC it says when each of its consumers has had a
 * batch, and when asked ("report") the events of the batches since, the CPU
 * it has used and the share of the time its event loop was busy since, its garbage
 * collector's pauses since then, its peak resident memory, and the batch
 * attempts it tried again; "stop" stops it.
 */
export type ProjectorMessage =
  { settled: true } | { applied: number; cpuUs: number; loopBusy: number; gcMs: number; peakRssMb: number; retries: { count: number; first?: string } };

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (this file is started by bench/projector.ts)`);
  return value;
}

const send = (message: ProjectorMessage) => process.send?.(message);

const db = openDatabase({ url: required('BENCH_DATABASE_URL'), poolSize: 10, applicationName: 'bench-projector' });
const log = await createKafkaLog({ brokers: required('BENCH_KAFKA_BROKERS').split(','), clientId: 'bench-projector', namespace: required('BENCH_NAMESPACE') });
let cpuAtSettled: NodeJS.CpuUsage | undefined;
let loopAtSettled: EventLoopUtilization | undefined;
let applied = 0;
const pauses = collectorPauses();
const settled = onGroupSettled(log, () => {
  cpuAtSettled = process.cpuUsage();
  loopAtSettled = performance.eventLoopUtilization();
  pauses.start();
  send({ settled: true });
});
const dataKeys = new DataKeys(db, new SecretBox(Buffer.from(required('BENCH_MASTER_KEY'), 'base64')));
const retries = new BatchRetries();
const projector = await startProjector({
  db,
  log: settled.log,
  ...dataKeyOptions(dataKeys),
  onRetry: (error) => retries.add(error),
  onBatch: (o, records) => {
    if (settled.timed(records)) applied += o.applied + o.duplicates + o.deadLettered;
  },
});

process.on('message', (message: unknown) => {
  if (message === 'report') {
    const cpu = process.cpuUsage(cpuAtSettled);
    send({
      applied,
      cpuUs: cpuAtSettled === undefined ? 0 : cpu.user + cpu.system,
      loopBusy: loopAtSettled === undefined ? 0 : performance.eventLoopUtilization(loopAtSettled).utilization,
      gcMs: loopAtSettled === undefined ? 0 : pauses.ms(),
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
