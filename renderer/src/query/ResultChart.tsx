import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import type { SqlResult } from '../../../server/src/contract/index.js';
import { usePersistedState } from '../state/persisted.js';
import {
  chartData,
  chartKinds,
  defaultChoice,
  fitChoice,
  kindsFor,
  shapeKey,
  type ChartChoice,
  type ChartData,
  type ChartKind,
  type ValueAxis,
} from './chart-data.js';
import { isNumericType } from './result-format.js';
import './results.css';

const palette = ['#2f6feb', '#e16f24', '#1a7f37', '#a0369a', '#b76e00', '#0f7b8a'];
const width = 800;
const height = 300;
const margin = { top: 12, right: 64, bottom: 56, left: 64 };
const plotWidth = width - margin.left - margin.right;
const plotHeight = height - margin.top - margin.bottom;
/** How many result shapes keep their chart choice (the oldest is forgotten first). */
const rememberedShapes = 50;

const kindTitles: Record<ChartKind, string> = { bar: 'Bar', line: 'Line', scatter: 'Scatter', pie: 'Pie' };

/** Large values as a reader says them (`78.3K`, `1.2M`), not in exponent notation. */
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

function tickLabel(value: number): string {
  return Math.abs(value) >= 10_000 ? compact.format(value) : Number(value.toFixed(2)).toString();
}

/** The SVG `y` of a value read against `axis`. */
const yOf = (axis: ValueAxis) => (v: number) =>
  margin.top + plotHeight - ((v - axis.min) / (axis.max - axis.min)) * plotHeight;

/** Where things go along x: the middle of each row's band, or (scatter) the position of its x value. */
function xScale(data: ChartData, kind: ChartKind) {
  const band = plotWidth / Math.max(data.labels.length, 1);
  const known = (data.positions ?? []).filter((v): v is number => v !== null);
  if (kind === 'scatter' && known.length > 0) {
    const min = Math.min(...known);
    const span = Math.max(...known) - min || 1;
    return { band, x: (i: number) => margin.left + (((data.positions![i] ?? min) - min) / span) * plotWidth };
  }
  return { band, x: (i: number) => margin.left + (i + 0.5) * band };
}

/** The x column, the y columns and the kind; the legend says which axis each series is read against. */
function ChartControls(props: {
  result: Pick<SqlResult, 'columns' | 'rows'>;
  choice: ChartChoice;
  data: ChartData;
  onChoice(choice: ChartChoice): void;
}) {
  const { result, choice, data, onChoice } = props;
  const kinds = kindsFor(result, choice);
  const toggleY = (name: string) =>
    onChoice({ ...choice, y: choice.y.includes(name) ? choice.y.filter((n) => n !== name) : [...choice.y, name] });
  return (
    <div className="toolbar chart-controls">
      <label>
        X{' '}
        <select
          aria-label="Chart x column"
          value={choice.x ?? ''}
          onChange={(e) => onChoice({ ...choice, x: e.target.value || undefined })}
        >
          <option value="">row number</option>
          {result.columns.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="chart-y" aria-label="Chart y columns">
        Y
        {result.columns
          .filter((c) => isNumericType(c.type))
          .map((c) => (
            <label key={c.name}>
              <input
                type="checkbox"
                checked={choice.y.includes(c.name)}
                disabled={choice.y.length === 1 && choice.y[0] === c.name}
                onChange={() => toggleY(c.name)}
              />{' '}
              {c.name}
            </label>
          ))}
      </fieldset>
      <label>
        Kind{' '}
        <select
          aria-label="Chart kind"
          value={choice.kind}
          onChange={(e) => onChoice({ ...choice, kind: e.target.value as ChartKind })}
        >
          {chartKinds.map((kind) => (
            <option key={kind} value={kind} disabled={!kinds.includes(kind)}>
              {kindTitles[kind]}
            </option>
          ))}
        </select>
      </label>
      <span className="spacer" />
      {data.series.map((s, i) => (
        <span key={s.name} className="legend" data-axis={s.axis}>
          <span className="swatch" style={{ background: palette[i % palette.length] }} /> {s.name}
          {data.axes.right && <span className="muted"> ({s.axis})</span>}
        </span>
      ))}
    </div>
  );
}

/** A value axis: grid lines (left axis only) and its values at quarters of the range, on its side. */
function ValueTicks({ axis, side }: { axis: ValueAxis; side: 'left' | 'right' }) {
  const y = yOf(axis);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((t) => axis.min + t * (axis.max - axis.min));
  const at = side === 'left' ? margin.left - 6 : width - margin.right + 6;
  return (
    <g aria-label={`${side} axis: ${axis.series.join(', ')}`} data-axis={side}>
      {ticks.map((t) => (
        <g key={t}>
          {side === 'left' && (
            <line x1={margin.left} x2={width - margin.right} y1={y(t)} y2={y(t)} className="chart-grid" />
          )}
          <text x={at} y={y(t) + 4} textAnchor={side === 'left' ? 'end' : 'start'} className="chart-tick">
            {tickLabel(t)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** One series: bars beside the other series' bars, a line, or points; read against its own axis. */
function Series({ data, index, kind }: { data: ChartData; index: number; kind: ChartKind }) {
  const series = data.series[index];
  const y = yOf(series.axis === 'right' ? data.axes.right! : data.axes.left);
  const { x, band } = xScale(data, kind);
  const colour = palette[index % palette.length];
  const title = (i: number, v: number) => <title>{`${data.labels[i]}: ${series.name} = ${v}`}</title>;
  if (kind === 'line') {
    const points = series.values.map((v, i) => (v === null ? '' : `${x(i)},${y(v)}`)).filter(Boolean);
    return <polyline fill="none" stroke={colour} strokeWidth={2} points={points.join(' ')} data-series={series.name} />;
  }
  if (kind === 'scatter')
    return (
      <g fill={colour} data-series={series.name}>
        {series.values.map((v, i) =>
          v === null ? null : (
            <circle key={i} cx={x(i)} cy={y(v)} r={3.5}>
              {title(i, v)}
            </circle>
          ),
        )}
      </g>
    );
  const barWidth = Math.max((band * 0.8) / data.series.length, 1);
  return (
    <g fill={colour} data-series={series.name}>
      {series.values.map((v, i) =>
        v === null ? null : (
          <rect
            key={i}
            x={margin.left + i * band + band * 0.1 + index * barWidth}
            width={barWidth}
            y={Math.min(y(v), y(0))}
            height={Math.abs(y(0) - y(v))}
          >
            {title(i, v)}
          </rect>
        ),
      )}
    </g>
  );
}

/** The first series as slices of a pie, one per row (what makes up a whole). */
function Pie({ data }: { data: ChartData }) {
  const series = data.series[0];
  const total = series.values.reduce<number>((sum, v) => sum + Math.max(v ?? 0, 0), 0) || 1;
  const [cx, cy, r] = [width / 2, height / 2, height / 2 - 16];
  const shares = series.values.map((v) => Math.max(v ?? 0, 0) / total);
  // Each slice starts where the shares before it end, from twelve o'clock.
  const starts = shares.map((_, i) => -Math.PI / 2 + shares.slice(0, i).reduce((a, b) => a + b, 0) * 2 * Math.PI);
  return (
    <g data-series={series.name}>
      {series.values.map((v, i) => {
        const share = shares[i];
        if (share === 0) return null;
        const start = starts[i];
        const end = start + share * 2 * Math.PI;
        const large = share > 0.5 ? 1 : 0;
        const point = (a: number) => `${cx + r * Math.cos(a)} ${cy + r * Math.sin(a)}`;
        const path =
          share >= 1
            ? `M ${cx - r} ${cy} a ${r} ${r} 0 1 0 ${2 * r} 0 a ${r} ${r} 0 1 0 ${-2 * r} 0`
            : `M ${cx} ${cy} L ${point(start)} A ${r} ${r} 0 ${large} 1 ${point(end)} Z`;
        return (
          <path key={i} d={path} fill={palette[i % palette.length]} className="chart-slice">
            <title>{`${data.labels[i]}: ${series.name} = ${v} (${Math.round(share * 100)}%)`}</title>
          </path>
        );
      })}
    </g>
  );
}

/** The row labels under the plot, slanted, at most about twenty of them. */
function LabelAxis({ data, kind }: { data: ChartData; kind: ChartKind }) {
  const { x } = xScale(data, kind);
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

/** The chart choice of each result shape, remembered across runs and restarts. */
function useRememberedChoice(result: Pick<SqlResult, 'columns' | 'rows'>) {
  const key = shapeKey(result.columns);
  const [choices, setChoices] = usePersistedState<Record<string, ChartChoice>>('query-chart-choices', {});
  const remembered = choices[key] && fitChoice(result, choices[key]);
  const choice = remembered ?? defaultChoice(result);
  const choose = (next: ChartChoice) =>
    setChoices((all) => {
      const others = Object.entries(all).filter(([k]) => k !== key);
      return Object.fromEntries([...others.slice(-(rememberedShapes - 1)), [key, next]]);
    });
  return [choice, choose] as const;
}

/**
 * How much smaller than its viewBox the chart is drawn (1 when not smaller): the labels grow by as much, so
 * that they stay 11 px on screen in a narrow view (the question view drew them at about 7 px).
 */
function useShrink() {
  const [element, setElement] = useState<SVGSVGElement | null>(null);
  const [shrink, setShrink] = useState(1);
  useEffect(() => {
    if (!element) return;
    const observer = new ResizeObserver(() => {
      // preserveAspectRatio "meet": the viewBox is scaled by the smaller of the two ratios.
      const box = element.getBoundingClientRect();
      const scale = Math.min(box.width / width, box.height / height);
      if (scale > 0) setShrink(Math.min(1, scale));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, { '--chart-shrink': shrink } as CSSProperties] as const;
}

/**
 * A chart (SVG) of a result: a choice of x column, y columns and kind (bar, line, scatter, pie where it
 * makes sense), remembered per result shape. Series of very different sizes are read against two axes.
 */
export function ResultChart({ result }: { result: SqlResult }) {
  const [choice, choose] = useRememberedChoice(result);
  const data = useMemo(() => choice && chartData(result, choice), [result, choice]);
  const [observeSize, shrinkStyle] = useShrink();
  if (!choice || !data) return <div className="placeholder">No numeric column to chart.</div>;
  const { kind } = choice;
  const axisLine = yOf(data.axes.left)(0);
  const names = data.series.map((s) => s.name).join(', ');
  return (
    <div className="query-chart">
      <ChartControls result={result} choice={choice} data={data} onChoice={choose} />
      <svg
        ref={observeSize}
        style={shrinkStyle}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${kind} chart of ${names}${data.axes.right ? ' on two axes' : ''}`}
        preserveAspectRatio="xMidYMid meet"
      >
        {kind === 'pie' ? (
          <Pie data={data} />
        ) : (
          <>
            <ValueTicks axis={data.axes.left} side="left" />
            {data.axes.right && <ValueTicks axis={data.axes.right} side="right" />}
            {data.series.map((s, i) => (
              <Series key={s.name} data={data} index={i} kind={kind} />
            ))}
            <line x1={margin.left} x2={width - margin.right} y1={axisLine} y2={axisLine} className="chart-axis" />
            <LabelAxis data={data} kind={kind} />
          </>
        )}
      </svg>
    </div>
  );
}
