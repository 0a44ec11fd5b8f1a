import { useMemo, useState } from 'react';
import { chartData } from './chart-data.js';
import type { SqlResult } from '../../../server/src/contract/index.js';

const palette = ['#2f6feb', '#e16f24', '#1a7f37', '#a0369a', '#b76e00', '#0f7b8a'];
const width = 800;
const height = 300;
const margin = { top: 12, right: 12, bottom: 56, left: 64 };

function tickLabel(value: number): string {
  return Math.abs(value) >= 10_000 ? value.toExponential(1) : Number(value.toFixed(2)).toString();
}

/** A bar or line chart (SVG) of a result: numeric columns against the first text column. */
export function ResultChart({ result }: { result: SqlResult }) {
  const [kind, setKind] = useState<'bar' | 'line'>('bar');
  const data = useMemo(() => chartData(result), [result]);
  if (!data) return <div className="placeholder">No numeric column to chart.</div>;
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const y = (v: number) => margin.top + plotHeight - ((v - data.min) / (data.max - data.min)) * plotHeight;
  const band = plotWidth / Math.max(data.labels.length, 1);
  const barWidth = Math.max((band * 0.8) / data.series.length, 1);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => data.min + t * (data.max - data.min));
  const labelEvery = Math.ceil(data.labels.length / 20);

  return (
    <div className="query-chart">
      <div className="toolbar">
        <label>
          <input type="radio" name="chart-kind" checked={kind === 'bar'} onChange={() => setKind('bar')} /> Bar
        </label>
        <label>
          <input type="radio" name="chart-kind" checked={kind === 'line'} onChange={() => setKind('line')} /> Line
        </label>
        <span className="spacer" />
        {data.series.map((s, i) => (
          <span key={s.name} className="legend">
            <span className="swatch" style={{ background: palette[i % palette.length] }} /> {s.name}
          </span>
        ))}
      </div>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${kind} chart of ${data.series.map((s) => s.name).join(', ')}`}
        preserveAspectRatio="xMidYMid meet"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={margin.left} x2={width - margin.right} y1={y(t)} y2={y(t)} className="chart-grid" />
            <text x={margin.left - 6} y={y(t) + 4} textAnchor="end" className="chart-tick">
              {tickLabel(t)}
            </text>
          </g>
        ))}
        {data.series.map((s, si) =>
          kind === 'bar' ? (
            <g key={s.name} fill={palette[si % palette.length]}>
              {s.values.map((v, i) =>
                v === null ? null : (
                  <rect
                    key={i}
                    x={margin.left + i * band + band * 0.1 + si * barWidth}
                    width={barWidth}
                    y={Math.min(y(v), y(0))}
                    height={Math.abs(y(0) - y(v))}
                  >
                    <title>{`${data.labels[i]}: ${s.name} = ${v}`}</title>
                  </rect>
                ),
              )}
            </g>
          ) : (
            <polyline
              key={s.name}
              fill="none"
              stroke={palette[si % palette.length]}
              strokeWidth={2}
              points={s.values
                .map((v, i) => (v === null ? '' : `${margin.left + (i + 0.5) * band},${y(v)}`))
                .filter(Boolean)
                .join(' ')}
            />
          ),
        )}
        <line x1={margin.left} x2={width - margin.right} y1={y(0)} y2={y(0)} className="chart-axis" />
        {data.labels.map((label, i) =>
          i % labelEvery === 0 ? (
            <text
              key={i}
              x={margin.left + (i + 0.5) * band}
              y={height - margin.bottom + 14}
              textAnchor="end"
              transform={`rotate(-30 ${margin.left + (i + 0.5) * band} ${height - margin.bottom + 14})`}
              className="chart-tick"
            >
              {label.length > 14 ? `${label.slice(0, 13)}…` : label}
            </text>
          ) : null,
        )}
      </svg>
    </div>
  );
}
