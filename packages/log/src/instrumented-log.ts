import { continuing, inSpan, SpanKind, withTraceHeaders, type Metrics } from '@earshot/telemetry';
import type { ConsumedBatchHandler, EventLog, LogRecord } from './event-log';
import type { TopicName } from './topics';

/**
 * The event log as the process uses it, whichever adapter is underneath:
 * every append counted by topic and timed, acknowledged or failed; when
 * tracing is on, each append is a span whose context rides in the records'
 * `traceparent` header, and each consumed batch a span continuing it.
 */
export function instrumentLog(log: EventLog, metrics: Metrics): EventLog {
  return {
    append: (records) => {
      const attributes = { 'messaging.system': 'earshot', 'messaging.operation.type': 'send', 'messaging.batch.message_count': records.length };
      return inSpan('earshot.log append', { kind: SpanKind.PRODUCER, attributes }, async () => {
        const timer = metrics.logAppendDuration.startTimer();
        try {
          // Every record of an append carries the same context; with tracing off there is none, and the records go as they are.
          const trace = withTraceHeaders({});
          const carried = Object.keys(trace).length === 0 ? records : records.map((record) => ({ ...record, headers: { ...record.headers, ...trace } }));
          const positions = await log.append(carried);
          timer({ outcome: 'ok' });
          const byTopic = new Map<TopicName, number>();
          for (const { topic } of records) byTopic.set(topic, (byTopic.get(topic) ?? 0) + 1);
          for (const [topic, count] of byTopic) metrics.logAppendedRecords.inc({ topic }, count);
          return positions;
        } catch (error) {
          timer({ outcome: 'error' });
          throw error;
        }
      });
    },
    consume: (options) => log.consume({ ...options, onBatch: traced(options.group, options.onBatch) }),
    replay: (options) => log.replay(options),
    subscribe: (options) => log.subscribe(options),
    ends: (topic) => log.ends(topic),
    ping: () => log.ping(),
    close: () => log.close(),
  };
}

/**
 * A consumed batch handled in a span that continues the trace of its first
 * traced record and links the others, as OpenTelemetry's messaging
 * conventions do for batches, so a request's trace reaches the read models.
 */
function traced(group: string, onBatch: ConsumedBatchHandler): ConsumedBatchHandler {
  return (records: readonly LogRecord[]) => {
    const first = records[0];
    if (!first) return onBatch(records);
    const { parent, links } = continuing(records.map((record) => record.headers));
    const attributes = {
      'messaging.system': 'earshot',
      'messaging.operation.type': 'process',
      'messaging.consumer.group.name': group,
      'messaging.destination.name': first.topic,
      'messaging.destination.partition.id': String(first.partition),
      'messaging.batch.message_count': records.length,
    };
    return inSpan(`earshot.log process ${first.topic}`, { kind: SpanKind.CONSUMER, attributes, links }, () => onBatch(records), parent);
  };
}
