/** A time-series chart on uPlot (canvas, fast at thousands of points), coloured from the theme and redrawn when it changes. */
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatMetric } from '../lib/format';
import type { Point } from '../lib/range';

export interface ChartSeries {
  label: string;
  points: readonly Point[];
  /** A CSS custom property of the theme, e.g. `--series-1`. */
  color: string;
  /** `y2`: a second axis on the right, in its own unit. */
  axis?: 'y' | 'y2';
  bars?: boolean;
}

export interface ChartProps {
  series: ChartSeries[];
  unit: string;
  unit2?: string;
  /** A horizontal reference line, such as the 800 ms p95 target. */
  target?: { value: number; label: string };
  height?: number;
  /** A summary for screen readers, since the canvas says nothing. */
  label: string;
  onZoom?: (fromSeconds: number, toSeconds: number) => void;
}

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

function useColorScheme(): string {
  const query = matchMedia('(prefers-color-scheme: dark)');
  const [scheme, setScheme] = useState(query.matches ? 'dark' : 'light');
  useEffect(() => {
    const change = () => setScheme(query.matches ? 'dark' : 'light');
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return scheme;
}

/** Every series on the union of their bucket times, with gaps (null) where a series has no point. */
function alignSeries(series: readonly { points: readonly Point[] }[]): uPlot.AlignedData {
  const times = [...new Set(series.flatMap((s) => s.points.map((p) => p.t)))].sort();
  const xs = times.map((t) => Date.parse(t) / 1000);
  const ys = series.map((s) => {
    const at = new Map(s.points.map((p) => [p.t, p.value]));
    return times.map((t) => at.get(t) ?? null);
  });
  return [xs, ...ys];
}

/** Time labels on one line: the time of day, and the date where the day changes or the span is days long. */
function timeLabels(_u: uPlot, splits: number[], _axis: number, _space: number, increment: number): string[] {
  let lastDay = '';
  return splits.map((seconds) => {
    const date = new Date(seconds * 1000);
    const day = `${date.getDate()} ${date.toLocaleString('en-US', { month: 'short' })}`;
    const time = `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
    const label = increment >= 86_400 ? day : day !== lastDay && lastDay !== '' ? `${day} ${time}` : time;
    lastDay = day;
    return label;
  });
}

export function Chart({ series, unit, unit2, target, height = 240, label, onZoom }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const scheme = useColorScheme();
  const zoom = useRef(onZoom);
  zoom.current = onZoom;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const grid = { stroke: cssVar('--border'), width: 1 };
    const axis = (scale: string, side: 0 | 1 | 2 | 3, u: string) => ({
      scale,
      side,
      stroke: cssVar('--faint'),
      grid: side === 3 ? grid : { show: false },
      ticks: { show: false },
      size: 56,
      font: '11.5px system-ui, sans-serif',
      values: (_: uPlot, values: number[]) => values.map((v) => formatMetric(v, u)),
    });
    const targetColor = cssVar('--target');
    const options: uPlot.Options = {
      width: element.clientWidth || 600,
      height,
      legend: { show: false },
      cursor: { drag: { x: Boolean(zoom.current), y: false, setScale: false }, points: { size: 6 } },
      scales: {
        x: { time: true },
        y: { range: (_u, min, max) => [Math.min(0, min), Math.max(max * 1.1, target ? target.value * 1.15 : 0, 1)] },
        y2: { range: (_u, _min, max) => [0, Math.max(max * 1.1, 0.05)] },
      },
      axes: [
        { stroke: cssVar('--faint'), grid: { show: false }, ticks: { show: false }, font: '11.5px system-ui, sans-serif', space: 90, values: timeLabels },
        axis('y', 3, unit),
        ...(series.some((s) => s.axis === 'y2') ? [axis('y2', 1, unit2 ?? unit)] : []),
      ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          scale: s.axis ?? 'y',
          stroke: cssVar(s.color),
          width: s.bars ? 0 : 1.75,
          fill: s.bars ? cssVar(s.color) : undefined,
          paths: s.bars ? uPlot.paths.bars?.({ size: [0.7, 24], gap: 1 }) : undefined,
          points: { show: false },
          spanGaps: false,
        })),
      ],
      hooks: {
        draw: [
          (u: uPlot) => {
            if (!target) return;
            const y = Math.round(u.valToPos(target.value, 'y', true));
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = targetColor;
            ctx.setLineDash([6, 4]);
            ctx.lineWidth = 1.5 * devicePixelRatio;
            ctx.beginPath();
            ctx.moveTo(u.bbox.left, y);
            ctx.lineTo(u.bbox.left + u.bbox.width, y);
            ctx.stroke();
            ctx.fillStyle = targetColor;
            ctx.textAlign = 'right';
            ctx.textBaseline = 'bottom';
            ctx.font = `${11.5 * devicePixelRatio}px system-ui, sans-serif`;
            ctx.fillText(target.label, u.bbox.left + u.bbox.width - 4 * devicePixelRatio, y - 4 * devicePixelRatio);
            ctx.restore();
          },
        ],
        setSelect: [
          (u: uPlot) => {
            if (!zoom.current || u.select.width < 4) return;
            zoom.current(u.posToVal(u.select.left, 'x'), u.posToVal(u.select.left + u.select.width, 'x'));
            u.setSelect({ left: 0, top: 0, width: 0, height: 0 }, false);
          },
        ],
      },
    };
    const plot = new uPlot(options, alignSeries(series), element);
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series, unit, unit2, target?.value, height, scheme]);

  return (
    <figure style={{ margin: 0 }}>
      <div class="chart" ref={box} role="img" aria-label={label} />
      <figcaption class="legend" style={{ marginTop: '8px' }}>
        {series.map((s) => (
          <span key={s.label}>
            <i class={s.bars ? 'swatch' : 'swatch line'} style={{ background: `var(${s.color})` }} />
            {s.label}
          </span>
        ))}
        {target && (
          <span>
            <i class="swatch dashed" />
            {target.label}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
