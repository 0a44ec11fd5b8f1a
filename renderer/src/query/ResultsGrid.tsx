import { useMemo, useRef, useState, type UIEvent } from 'react';
import type { SqlResult } from '../../../server/src/contract/index.js';
import { cellText, numericValue, sortRows, toCsv, toJson, toTsv, type SortDirection } from './result-format.js';

const rowHeight = 24;
const overscan = 10;

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The rows of a result in a grid that renders only the rows in view (results reach 10,000 rows and
 * more), sortable by clicking a column header, with copy and CSV/JSON export of the sorted rows.
 */
export function ResultsGrid({ result, onNotify }: { result: SqlResult; onNotify(message: string): void }) {
  const [sort, setSort] = useState<{ column: string; direction: SortDirection }>();
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(400);
  const [selected, setSelected] = useState<number>();
  const scroller = useRef<HTMLDivElement>(null);

  const rows = useMemo(
    () => (sort ? sortRows(result.rows, sort.column, sort.direction) : result.rows),
    [result.rows, sort],
  );
  const sorted = useMemo(() => ({ columns: result.columns, rows }), [result.columns, rows]);
  const template = `calc(${String(rows.length).length + 2}ch + 16px) repeat(${result.columns.length}, minmax(110px, 1fr))`;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewHeight) / rowHeight) + overscan);

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    setScrollTop(e.currentTarget.scrollTop);
    setViewHeight(e.currentTarget.clientHeight);
  };
  const toggleSort = (column: string) =>
    setSort((s) =>
      s?.column !== column
        ? { column, direction: 'asc' }
        : s.direction === 'asc'
          ? { column, direction: 'desc' }
          : undefined,
    );
  const copy = (text: string, what: string) =>
    navigator.clipboard.writeText(text).then(
      () => onNotify(`Copied ${what}`),
      () => onNotify('The browser did not allow copying'),
    );

  return (
    <div className="results">
      <div className="toolbar">
        <button type="button" onClick={() => void copy(toTsv(sorted), `${rows.length} rows`)}>
          Copy
        </button>
        <button
          type="button"
          disabled={selected === undefined}
          onClick={() =>
            selected !== undefined &&
            void copy(toTsv({ columns: result.columns, rows: [rows[selected]] }).split('\n')[1], 'the row')
          }
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
      <div
        className="results-grid"
        ref={scroller}
        onScroll={onScroll}
        role="grid"
        aria-label="Query results"
        aria-rowcount={rows.length + 1}
      >
        <div className="results-row header" role="row" style={{ gridTemplateColumns: template }}>
          <span className="results-cell index" role="columnheader">
            #
          </span>
          {result.columns.map((c) => (
            <button
              key={c.name}
              type="button"
              role="columnheader"
              className="results-cell"
              title={`${c.name} ${c.type}: sort`}
              onClick={() => toggleSort(c.name)}
              aria-sort={sort?.column === c.name ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
            >
              {c.name} <span className="muted">{c.type}</span>
              {sort?.column === c.name && (sort.direction === 'asc' ? ' ▲' : ' ▼')}
            </button>
          ))}
        </div>
        <div style={{ height: rows.length * rowHeight, position: 'relative' }}>
          {rows.slice(first, last).map((row, i) => {
            const index = first + i;
            return (
              <div
                key={index}
                role="row"
                aria-rowindex={index + 2}
                className={`results-row${selected === index ? ' selected' : ''}`}
                style={{
                  gridTemplateColumns: template,
                  position: 'absolute',
                  top: index * rowHeight,
                  height: rowHeight,
                  left: 0,
                  right: 0,
                }}
                onClick={() => setSelected(index)}
              >
                <span className="results-cell index">{index + 1}</span>
                {result.columns.map((c) => {
                  const value = row[c.name];
                  return (
                    <span
                      key={c.name}
                      role="gridcell"
                      className={`results-cell${value === null || value === undefined ? ' null' : numericValue(value) !== undefined && typeof value !== 'boolean' ? ' number' : ''}`}
                      title={cellText(value)}
                    >
                      {cellText(value)}
                    </span>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
