import type { Consumer } from '@platformatic/kafka';

const close = <Key, Value, HeaderKey, HeaderValue>(consumer: Consumer<Key, Value, HeaderKey, HeaderValue>) =>
  new Promise<void>((resolve, reject) => consumer.close(true, (error) => (error ? reject(error) : resolve())));

/**
 * Leaves the group at once instead of finishing fetches in flight: their records are read again by whoever comes next.
 * A rejoin that the group's last rebalance started keeps retrying on the closed connections and reports its failure as
 * an 'error' event, which with no listener would end the process: from here on, the consumer's errors are of a consumer
 * gone, and are dropped. A group that cannot be told (its broker away) is not told: the client then closes without
 * leaving, as it does for a member it never joined, and the group drops the member when its session times out.
 */
export async function closeForcibly<Key, Value, HeaderKey, HeaderValue>(consumer: Consumer<Key, Value, HeaderKey, HeaderValue>): Promise<void> {
  consumer.on('error', () => undefined);
  try {
    await close(consumer);
  } catch {
    consumer.memberId = null;
    await close(consumer);
  }
}
