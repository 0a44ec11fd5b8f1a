import { useMemo, useState, type UIEvent } from 'react';
import type { ResultColumn, ResultRow, SqlResult } from '../../../server/src/contract/index.js';
import { cellText, numericValue, sortRows, toCsv, toJson, toTsv, type SortDirection } from './result-format.js';

const rowHeight = 24;
const overscan = 10;

type Sort = { column: string; direction: SortDirection };

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The rows in view (and `overscan` more each side) of `count` rows in a scrolled area. */
function useVisibleRows(count: number) {
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(400);
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    setScrollTop(e.currentTarget.scrollTop);
    setViewHeight(e.currentTarget.clientHeight);
  };
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + viewHeight) / rowHeight) + overscan);
  return { first, last, onScroll };
}

interface ToolbarProps {
  /** The result with its rows in the order shown. */
  sorted: Pick<SqlResult, 'columns' | 'rows'>;
  selected?: number;
  onNotify(message: string): void;
}

/** Copy (all rows or the selected one, as tab-separated text) and CSV/JSON export of the rows as sorted. */
function ResultsToolbar({ sorted, selected, onNotify }: ToolbarProps) {
  const copy = (text: string, what: string) =>
    navigator.clipboard.writeText(text).then(
      () => onNotify(`Copied ${what}`),
      () => onNotify('The browser did not allow copying'),
    );
  const copyRow = (index: number) =>
    copy(toTsv({ columns: sorted.columns, rows: [sorted.rows[index]] }).split('\n')[1], 'the row');
  return (
    <div className="toolbar">
      <button type="button" onClick={() => void copy(toTsv(sorted), `${sorted.rows.length} rows`)}>
        Copy
      </button>
      <button
        type="button"
        disabled={selected === undefined}
        onClick={() => selected !== undefined && void copyRow(selected)}
      >
        Copy row
      </button>
      <button type="button" onClick={() => download('query-result.csv', 'text/csv', toCsv(sorted))}>
        Export CSV
      </button>
      <button type="button" onClick={() => download('query-result.json', 'application/json', toJson(sorted))}>
        Export JSON
      </button>
    </div>
  );
}

/** The column headers: a click sorts ascending, then descending, then not at all. */
function HeaderRow(props: { columns: ResultColumn[]; template: string; sort?: Sort; onSort(column: string): void }) {
  const { sort } = props;
  return (
    <div className="results-row header" role="row" style={{ gridTemplateColumns: props.template }}>
      <span className="results-cell index" role="columnheader">
        #
      </span>
      {props.columns.map((c) => (
        <button
          key={c.name}
          type="button"
          role="columnheader"
          className="results-cell"
          title={`${c.name} ${c.type}: sort`}
          onClick={() => props.onSort(c.name)}
          aria-sort={sort?.column === c.name ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
        >
          {c.name} <span className="muted">{c.type}</span>
          {sort?.column === c.name && (sort.direction === 'asc' ? ' ▲' : ' ▼')}
        </button>
      ))}
    </div>
  );
}

/** How a cell's value looks: NULL and numbers have their own style. */
function cellClass(value: unknown): string {
  if (value === null || value === undefined) return ' null';
  return numericValue(value) !== undefined && typeof value !== 'boolean' ? ' number' : '';
}

interface RowProps {
  row: ResultRow;
  index: number;
  columns: ResultColumn[];
  template: string;
  selected: boolean;
  onSelect(index: number): void;
}

/** One row, placed absolutely at its index (the grid renders only the rows in view). */
function GridRow({ row, index, columns, template, selected, onSelect }: RowProps) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={`results-row${selected ? ' selected' : ''}`}
      style={{
        gridTemplateColumns: template,
        position: 'absolute',
        top: index * rowHeight,
        height: rowHeight,
        left: 0,
        right: 0,
      }}
      onClick={() => onSelect(index)}
    >
      <span className="results-cell index">{index + 1}</span>
      {columns.map((c) => (
        <span
          key={c.name}
          role="gridcell"
          className={`results-cell${cellClass(row[c.name])}`}
          title={cellText(row[c.name])}
        >
          {cellText(row[c.name])}
        </span>
      ))}
    </div>
  );
}

/**
 * The rows of a result in a grid that renders only the rows in view (results reach 10,000 rows and
 * more), sortable by clicking a column header, with copy and CSV/JSON export of the sorted rows.
 */
export function ResultsGrid({ result, onNotify }: { result: SqlResult; onNotify(message: string): void }) {
  const [sort, setSort] = useState<Sort>();
  const [selected, setSelected] = useState<number>();
  const rows = useMemo(
    () => (sort ? sortRows(result.rows, sort.column, sort.direction) : result.rows),
    [result.rows, sort],
  );
  const sorted = useMemo(() => ({ columns: result.columns, rows }), [result.columns, rows]);
  const { first, last, onScroll } = useVisibleRows(rows.length);
  // The row number column fits the largest number; the others share the rest.
  const indexWidth = `calc(${String(rows.length).length + 2}ch + 16px)`;
  const template = `${indexWidth} repeat(${result.columns.length}, minmax(110px, 1fr))`;
  const toggleSort = (column: string) =>
    setSort((s) =>
      s?.column !== column
        ? { column, direction: 'asc' }
        : s.direction === 'asc'
          ? { column, direction: 'desc' }
          : undefined,
    );

  return (
    <div className="results">
      <ResultsToolbar sorted={sorted} selected={selected} onNotify={onNotify} />
      <div
        className="results-grid"
        onScroll={onScroll}
        role="grid"
        aria-label="Query results"
        aria-rowcount={rows.length + 1}
      >
        <HeaderRow columns={result.columns} template={template} sort={sort} onSort={toggleSort} />
        <div style={{ height: rows.length * rowHeight, position: 'relative' }}>
          {rows.slice(first, last).map((row, i) => (
            <GridRow
              key={first + i}
              row={row}
              index={first + i}
              columns={result.columns}
              template={template}
              selected={selected === first + i}
              onSelect={setSelected}
            />
          ))}
        </div>
      </div>
    </div>
  );
}
