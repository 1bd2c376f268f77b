import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Delivery } from '@earshot/contracts';
import type { LogPosition, OutgoingRecord } from '@earshot/log';
import { DeliveryRecorder } from './delivery-recorder';

function delivery(): Delivery {
  return {
    id: randomUUID(),
    time: '2026-03-02T10:00:00.000Z',
    tenant: 'tenant-1',
    provider: 'vapi',
    event_type: 'call.started',
    idempotency_key: randomUUID(),
    outcome: 'accepted',
    http_status: 202,
    duration_ms: 3,
    event_id: randomUUID(),
    reason: null,
  };
}

/** A log that records each append and answers it as told. */
function fakeLog(answer: (call: number) => 'ok' | 'fail' = () => 'ok') {
  const appends: OutgoingRecord[][] = [];
  let notify: (() => void) | undefined;
  return {
    appends,
    /** Resolves once `count` appends were made. */
    appended: (count: number) =>
      new Promise<void>((resolve) => {
        notify = () => appends.length >= count && resolve();
        notify();
      }),
    append: async (records: readonly OutgoingRecord[]): Promise<LogPosition[]> => {
      appends.push([...records]);
      notify?.();
      if (answer(appends.length) === 'fail') throw new Error('broker unreachable');
      return records.map((record, offset) => ({ topic: record.topic, partition: 0, offset: String(offset) }));
    },
  };
}

describe('DeliveryRecorder', () => {
  it('gathers the deliveries of several requests into one append instead of a produce per request', async () => {
    const log = fakeLog();
    const recorder = new DeliveryRecorder(log, { lingerMs: 5 });
    recorder.record([delivery()]);
    recorder.record([delivery(), delivery()]);
    recorder.record([delivery()]);
    await log.appended(1);
    expect(log.appends.map((records) => records.length)).toEqual([4]);
    await recorder.close(1_000);
  });

  it('appends what is pending at once when closing, without waiting out the linger', async () => {
    const log = fakeLog();
    const recorder = new DeliveryRecorder(log, { lingerMs: 3_600_000 });
    recorder.record([delivery()]);
    await recorder.close(1_000);
    expect(log.appends.map((records) => records.length)).toEqual([1]);
  });

  it('retries a failed append with the records of later requests, and says when the log takes them again', async () => {
    const log = fakeLog((call) => (call === 1 ? 'fail' : 'ok'));
    const lines: string[] = [];
    const recorder = new DeliveryRecorder(log, { lingerMs: 1, retryMs: 1, report: (line) => lines.push(line) });
    recorder.record([delivery()]);
    await log.appended(1);
    recorder.record([delivery()]);
    await log.appended(2);
    await recorder.close(1_000);
    expect(log.appends.map((records) => records.length)).toEqual([1, 2]);
    expect(lines).toEqual([expect.stringContaining('failed, retrying'), expect.stringContaining('takes delivery records again')]);
  });

  it('drops a record that cannot be encoded alone, before it joins the others, and says so', async () => {
    const log = fakeLog();
    const lines: string[] = [];
    const recorder = new DeliveryRecorder(log, { lingerMs: 1, report: (line) => lines.push(line) });
    const unencodable = { ...delivery(), http_status: 'two hundred' } as unknown as Delivery;
    recorder.record([delivery(), unencodable, delivery()]);
    await recorder.close(1_000);
    expect(log.appends.map((records) => records.length)).toEqual([2]);
    expect(lines).toEqual([expect.stringContaining('could not be encoded and is dropped')]);
  });
});
