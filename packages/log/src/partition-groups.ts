/**
 * Records grouped by the partition they came from, each group in the order given, the groups in the order their
 * partitions first appear: the batches a consumer applies, one partition each.
 */
export function byPartition<R extends { readonly topic: string; readonly partition: number }>(records: Iterable<R>): R[][] {
  const groups = new Map<string, R[]>();
  for (const record of records) {
    const slot = `${record.topic}:${record.partition}`;
    const group = groups.get(slot);
    if (group) group.push(record);
    else groups.set(slot, [record]);
  }
  return [...groups.values()];
}
