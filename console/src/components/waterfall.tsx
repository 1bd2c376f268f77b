/** Each turn of a call as a waterfall of its latency stages, on one scale, against the 800 ms target. */
import type { Turn } from '../api/types';
import { formatMs, formatTick } from '../lib/format';
import { STAGES, turnWaterfall, waterfallScale, waterfallTicks } from '../lib/waterfall';

export function Waterfall({ turns, targetMs, startedAt }: { turns: Turn[]; targetMs: number; startedAt: string }) {
  const scale = waterfallScale(turns.map((t) => t.latency.totalMs));
  const laid = turns.map((turn) => ({ turn, waterfall: turnWaterfall(turn.latency, scale) }));
  const missing = [...new Set(laid.flatMap((l) => l.waterfall.missing))];
  const started = Date.parse(startedAt);
  const ticks = waterfallTicks(scale);
  return (
    <div class="stack" style={{ gap: '12px' }}>
      <div class="legend" aria-hidden="true">
        {[...STAGES.map((s) => ({ id: s.id, label: s.label })), { id: 'unattributed', label: 'Unattributed' }].map((s) => (
          <span key={s.id}>
            <i class={`swatch ${s.id}`} style={missing.includes(s.label) ? { opacity: 0.35 } : undefined} />
            {s.label}
            {missing.includes(s.label) ? ' (not reported)' : ''}
          </span>
        ))}
        <span>
          <i class="swatch dashed" />
          {targetMs} ms target
        </span>
      </div>
      <div class="waterfall" role="list" aria-label="Turn latency by stage" data-testid="waterfall">
        <div class="wf-axis" aria-hidden="true">
          <span />
          <div class="ticks">
            {ticks.map((tick) => (
              <span key={tick} style={{ left: `${(tick / scale) * 100}%` }}>
                {formatTick(tick)}
              </span>
            ))}
          </div>
          <span />
        </div>
        {laid.map(({ turn, waterfall }, index) => {
          const spoken = waterfall.segments.filter((s) => s.ms !== null).map((s) => `${s.label} ${formatMs(s.ms)}`);
          const offset = (Date.parse(turn.occurredAt) - started) / 1000;
          return (
            <div
              class="wf-row"
              role="listitem"
              key={turn.turnId}
              data-testid="turn"
              data-turn-id={turn.turnId}
              aria-label={`Turn ${index + 1}: ${formatMs(waterfall.totalMs)} in all; ${spoken.join(', ')}`}
            >
              <span class="turn">
                Turn {index + 1}
                <br />
                <span class="faint num">{Number.isFinite(offset) ? `${Math.max(0, Math.round(offset))} s` : ''}</span>
              </span>
              <div class="wf-track">
                {ticks.slice(1).map((tick) => (
                  <span key={tick} class="wf-grid" style={{ left: `${(tick / scale) * 100}%` }} />
                ))}
                {waterfall.segments
                  .filter((s) => s.ms !== null && s.width > 0)
                  .map((s) => (
                    <span
                      key={s.id}
                      class={`wf-seg ${s.id}`}
                      data-stage={s.id}
                      data-ms={s.ms}
                      style={{ left: `${s.offset}%`, width: `${s.width}%` }}
                      title={`${s.label}: ${formatMs(s.ms)}`}
                    />
                  ))}
                {targetMs <= scale && <span class="wf-target" style={{ left: `${(targetMs / scale) * 100}%` }} />}
              </div>
              <span class={waterfall.totalMs > targetMs ? 'total slow' : 'total'}>
                {formatMs(waterfall.totalMs)}
                {turn.interrupted && (
                  <>
                    <br />
                    <span class="faint" style={{ fontWeight: 400, fontSize: '12px' }}>
                      interrupted
                    </span>
                  </>
                )}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
