import type { KeyLookup, OpenOptions } from '@earshot/events';
import type { LogRecord, OutgoingRecord, TopicName } from '@earshot/log';

/**
 * What one topic carries: its name, how a payload becomes a record (key,
 * value, headers) and how a record becomes a payload again. Producers and
 * consumers go through it, so they cannot disagree on any of the three.
 */
export interface Topic<Name extends TopicName, Payload, Options = void> {
  readonly name: Name;
  record(payload: Payload, options: Options): OutgoingRecord;
  /**
   * Throws on a record of another topic or a value that does not decode: a consumer treats both as poison. Sealed fields are
   * opened with the keys given (events only), as `options` say; those whose key is not held stay sealed.
   */
  read(record: Pick<LogRecord, 'topic' | 'value'>, keys?: KeyLookup, options?: OpenOptions): Payload;
}

export function defineTopic<Name extends TopicName, Payload, Options = void>(
  name: Name,
  shape: {
    message: (payload: Payload, options: Options) => Omit<OutgoingRecord, 'topic'>;
    decode: (value: Buffer, keys?: KeyLookup, options?: OpenOptions) => Payload;
  },
): Topic<Name, Payload, Options> {
  return {
    name,
    record: (payload, options) => ({ topic: name, ...shape.message(payload, options) }),
    read: (record, keys, options) => {
      if (record.topic !== name) throw new Error(`a record of ${record.topic} read as ${name}`);
      return shape.decode(record.value, keys, options);
    },
  };
}
