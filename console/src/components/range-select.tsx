import { isRangeId, RANGES, windowOf, type RangeId, type TimeWindow } from '../lib/range';
import { setQuery, useLocation } from '../router';

/** The page's time range, kept in the address (`?range=6h`) so a link shows the same view. */
export function useRange(fallback: RangeId = '24h'): { range: RangeId; window: TimeWindow } {
  const { query } = useLocation();
  const asked = query.get('range');
  const range = isRangeId(asked) ? asked : fallback;
  return { range, window: windowOf(range, new Date()) };
}

export function RangeSelect({ range }: { range: RangeId }) {
  return (
    <label class="field">
      Time range
      <select value={range} onChange={(e) => setQuery({ range: e.currentTarget.value })}>
        {RANGES.map((r) => (
          <option key={r.id} value={r.id}>
            {r.label}
          </option>
        ))}
      </select>
    </label>
  );
}
