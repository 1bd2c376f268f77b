import type { Consumer } from '@platformatic/kafka';

/**
 * Leaves the group at once instead of finishing fetches in flight: their records are read again by whoever comes next.
 * A rejoin that the group's last rebalance started keeps retrying on the closed connections and reports its failure as
 * an 'error' event, which with no listener would end the process: from here on, the consumer's errors are of a consumer
 * gone, and are dropped.
 */
export function closeForcibly<Key, Value, HeaderKey, HeaderValue>(consumer: Consumer<Key, Value, HeaderKey, HeaderValue>): Promise<void> {
  consumer.on('error', () => undefined);
  return new Promise((resolve, reject) => consumer.close(true, (error) => (error ? reject(error) : resolve())));
}
