/** `earliest`, or an ISO-8601 time: where a replay or an export starts. */
export function parseFrom(value: string | undefined): 'earliest' | Date {
  if (value === undefined || value === 'earliest') return 'earliest';
  return parseTime(value, '--from');
}

export function parseTime(value: string, option: string): Date {
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}/.test(value)) throw new Error(`${option} must be earliest or an ISO-8601 time, got "${value}"`);
  return new Date(ms);
}
