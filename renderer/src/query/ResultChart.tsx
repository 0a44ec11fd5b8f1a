import { useMemo, useState } from 'react';
import type { SqlResult } from '../../../server/src/contract/index.js';
import { chartData, type ChartData } from './chart-data.js';

const palette = ['#2f6feb', '#e16f24', '#1a7f37', '#a0369a', '#b76e00', '#0f7b8a'];
const width = 800;
const height = 300;
const margin = { top: 12, right: 12, bottom: 56, left: 64 };

type ChartKind = 'bar' | 'line';

function tickLabel(value: number): string {
  return Math.abs(value) >= 10_000 ? value.toExponential(1) : Number(value.toFixed(2)).toString();
}

/** Where things go in the SVG: `y` of a value, the band of each label, the width of a bar. */
function geometry(data: ChartData) {
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const band = plotWidth / Math.max(data.labels.length, 1);
  return {
    y: (v: number) => margin.top + plotHeight - ((v - data.min) / (data.max - data.min)) * plotHeight,
    band,
    /** The middle of the band of label `i`. */
    x: (i: number) => margin.left + (i + 0.5) * band,
    barWidth: Math.max((band * 0.8) / data.series.length, 1),
  };
}

/** Bar or line, and the legend of the series. */
function ChartToolbar({ kind, onKind, data }: { kind: ChartKind; onKind(kind: ChartKind): void; data: ChartData }) {
  return (
    <div className="toolbar">
      <label>
        <input type="radio" name="chart-kind" checked={kind === 'bar'} onChange={() => onKind('bar')} /> Bar
      </label>
      <label>
        <input type="radio" name="chart-kind" checked={kind === 'line'} onChange={() => onKind('line')} /> Line
      </label>
      <span className="spacer" />
      {data.series.map((s, i) => (
        <span key={s.name} className="legend">
          <span className="swatch" style={{ background: palette[i % palette.length] }} /> {s.name}
        </span>
      ))}
    </div>
  );
}

/** The value axis: grid lines with their values, at quarters of the range. */
function ValueTicks({ data, y }: { data: ChartData; y(v: number): number }) {
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => data.min + t * (data.max - data.min));
  return ticks.map((t) => (
    <g key={t}>
      <line x1={margin.left} x2={width - margin.right} y1={y(t)} y2={y(t)} className="chart-grid" />
      <text x={margin.left - 6} y={y(t) + 4} textAnchor="end" className="chart-tick">
        {tickLabel(t)}
      </text>
    </g>
  ));
}

/** One series: a bar per value beside the other series' bars, or a line through the values. */
function Series({ data, index, kind }: { data: ChartData; index: number; kind: ChartKind }) {
  const { y, x, band, barWidth } = geometry(data);
  const series = data.series[index];
  const colour = palette[index % palette.length];
  if (kind === 'line') {
    const points = series.values.map((v, i) => (v === null ? '' : `${x(i)},${y(v)}`)).filter(Boolean);
    return <polyline fill="none" stroke={colour} strokeWidth={2} points={points.join(' ')} />;
  }
  return (
    <g fill={colour}>
      {series.values.map((v, i) =>
        v === null ? null : (
          <rect
            key={i}
            x={margin.left + i * band + band * 0.1 + index * barWidth}
            width={barWidth}
            y={Math.min(y(v), y(0))}
            height={Math.abs(y(0) - y(v))}
          >
            <title>{`${data.labels[i]}: ${series.name} = ${v}`}</title>
          </rect>
        ),
      )}
    </g>
  );
}

/** The row labels under the plot, slanted, at most about twenty of them. */
function LabelAxis({ data, x }: { data: ChartData; x(i: number): number }) {
  const every = Math.ceil(data.labels.length / 20);
  const top = height - margin.bottom + 14;
  return data.labels.map((label, i) =>
    i % every === 0 ? (
      <text key={i} x={x(i)} y={top} textAnchor="end" transform={`rotate(-30 ${x(i)} ${top})`} className="chart-tick">
        {label.length > 14 ? `${label.slice(0, 13)}…` : label}
      </text>
    ) : null,
  );
}

/** A bar or line chart (SVG) of a result: numeric columns against the first text column. */
export function ResultChart({ result }: { result: SqlResult }) {
  const [kind, setKind] = useState<ChartKind>('bar');
  const data = useMemo(() => chartData(result), [result]);
  if (!data) return <div className="placeholder">No numeric column to chart.</div>;
  const { y, x } = geometry(data);
  return (
    <div className="query-chart">
      <ChartToolbar kind={kind} onKind={setKind} data={data} />
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${kind} chart of ${data.series.map((s) => s.name).join(', ')}`}
        preserveAspectRatio="xMidYMid meet"
      >
        <ValueTicks data={data} y={y} />
        {data.series.map((s, i) => (
          <Series key={s.name} data={data} index={i} kind={kind} />
        ))}
        <line x1={margin.left} x2={width - margin.right} y1={y(0)} y2={y(0)} className="chart-axis" />
        <LabelAxis data={data} x={x} />
      </svg>
    </div>
  );
}
