import { useMemo, useState, type UIEvent } from 'react';
import type { ResultColumn, ResultRow, SqlResult } from '../../../server/src/contract/index.js';
import { gridColumns } from './grid-columns.js';
import { cellText, numericValue, sortRows, toCsv, toJson, toTsv, type SortDirection } from './result-format.js';
import {
  clampPage,
  movePage,
  pageCount,
  pageRows,
  pageSizes,
  resizePage,
  type PageMove,
  type PageState,
} from './result-paging.js';
import './results.css';

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
  /** The row of `sorted` selected. */
  selected?: number;
  /** What the rows are, for the buttons' titles: all the result's rows, or one page of a stored result. */
  scope: string;
  onNotify(message: string): void;
}

/** Copy (all rows or the selected one, as tab-separated text) and CSV/JSON export of the rows as sorted. */
function ResultsToolbar({ sorted, selected, scope, onNotify }: ToolbarProps) {
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
      <button
        type="button"
        title={`CSV of ${scope}`}
        onClick={() => download('query-result.csv', 'text/csv', toCsv(sorted))}
      >
        Export CSV
      </button>
      <button
        type="button"
        title={`JSON of ${scope}; numbers stay numbers where a double holds them exactly`}
        onClick={() => download('query-result.json', 'application/json', toJson(sorted))}
      >
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
  /** The row's place on the page. */
  index: number;
  /** The row's number in the whole result. */
  number: number;
  columns: ResultColumn[];
  template: string;
  selected: boolean;
  onSelect(index: number): void;
}

/** One row, placed absolutely at its index (the grid renders only the rows in view). */
function GridRow({ row, index, number, columns, template, selected, onSelect }: RowProps) {
  return (
    <div
      role="row"
      aria-rowindex={number + 1}
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
      <span className="results-cell index">{number}</span>
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

/** First, previous, next and last page, where the reader is, and the page size. */
function Pager({
  state,
  onPage,
  onSize,
  loading,
}: {
  state: PageState;
  onPage(page: number): void;
  onSize(size: number): void;
  loading?: boolean;
}) {
  const count = pageCount(state.total, state.size);
  const { first, last } = pageRows(state);
  const button = (move: PageMove, label: string, text: string) => {
    const target = movePage(state, move);
    return (
      <button
        type="button"
        aria-label={label}
        title={label}
        disabled={loading || target === state.page}
        onClick={() => onPage(target)}
      >
        {text}
      </button>
    );
  };
  return (
    <div className="toolbar pager" role="navigation" aria-label="Result pages">
      {button('first', 'First page', '«')}
      {button('previous', 'Previous page', '‹')}
      <span className="page-position" aria-live="polite">
        Page {state.page + 1} of {count} · rows {first}–{last} of {state.total}
        {loading && ' · loading…'}
      </span>
      {button('next', 'Next page', '›')}
      {button('last', 'Last page', '»')}
      <label>
        Rows per page{' '}
        <select value={state.size} disabled={loading} onChange={(e) => onSize(Number(e.target.value))}>
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** A result that is one page of a larger stored one (an async job's): the others are read on demand. */
export interface StoredPages {
  /** The index of the result's first row in the whole result. */
  offset: number;
  /** The page size the rows were read with. */
  limit: number;
  total: number;
  loading: boolean;
  /** Reads `limit` rows from `offset` in place of the result's rows. */
  onPage(offset: number, limit: number): void;
}

/** The page on show: kept here for a result held whole, taken from `stored` for one read page by page. */
function usePaging(rowCount: number, stored?: StoredPages) {
  const [local, setLocal] = useState({ page: 0, size: pageSizes[0] as number });
  const state: PageState = stored
    ? { page: Math.floor(stored.offset / stored.limit), size: stored.limit, total: stored.total }
    : // A new, shorter result keeps the reader's page only where it still has one.
      { page: clampPage(local.page, rowCount, local.size), size: local.size, total: rowCount };
  const onPage = (page: number) =>
    stored ? stored.onPage(page * state.size, state.size) : setLocal((l) => ({ ...l, page }));
  const onSize = (size: number) => {
    const page = resizePage(state, size);
    if (stored) stored.onPage(page * size, size);
    else setLocal({ page, size });
  };
  return { state, onPage, onSize };
}

/**
 * The rows of a result a page at a time (page size 100 to 5000; a result held whole is paged here, an
 * async job's stored result is read page by page from the server), in a grid that renders only the rows in
 * view, sortable by clicking a column header, with copy and CSV/JSON export of the sorted rows.
 */
export function ResultsGrid({
  result,
  onNotify,
  stored,
}: {
  result: SqlResult;
  onNotify(message: string): void;
  /** The result is one page of a stored one: the pager reads the others. */
  stored?: StoredPages;
}) {
  const [sort, setSort] = useState<Sort>();
  const [selected, setSelected] = useState<number>();
  const rows = useMemo(
    () => (sort ? sortRows(result.rows, sort.column, sort.direction) : result.rows),
    [result.rows, sort],
  );
  const sorted = useMemo(() => ({ columns: result.columns, rows }), [result.columns, rows]);
  const paging = usePaging(result.rows.length, stored);
  // A result held whole is sliced here; a stored one's rows are the page already.
  const { offset, limit } = pageRows(paging.state);
  const pageStart = stored ? 0 : offset;
  const shown = stored ? rows : rows.slice(offset, offset + limit);
  const firstIndex = stored ? stored.offset : offset;
  const scope = stored ? `this page (${rows.length} of ${stored.total} rows)` : `all ${rows.length} rows, as sorted`;
  return (
    <div className="results">
      <ResultsToolbar sorted={sorted} selected={selected} scope={scope} onNotify={onNotify} />
      <Pager state={paging.state} onPage={paging.onPage} onSize={paging.onSize} loading={stored?.loading} />
      <PageRows
        key={`${firstIndex}:${limit}`}
        columns={result.columns}
        rows={shown}
        firstIndex={firstIndex}
        total={paging.state.total}
        sort={sort}
        onSort={(column) => setSort((s) => nextSort(s, column))}
        selected={selected === undefined ? undefined : selected - pageStart}
        onSelect={(i) => setSelected(pageStart + i)}
      />
    </div>
  );
}

/** Sorting by a header: ascending, then descending, then not at all. */
function nextSort(sort: Sort | undefined, column: string): Sort | undefined {
  if (sort?.column !== column) return { column, direction: 'asc' };
  return sort.direction === 'asc' ? { column, direction: 'desc' } : undefined;
}

interface PageRowsProps {
  columns: ResultColumn[];
  /** The rows of the page. */
  rows: ResultRow[];
  /** The index in the whole result of the page's first row (row numbers count from it). */
  firstIndex: number;
  total: number;
  sort?: Sort;
  onSort(column: string): void;
  selected?: number;
  onSelect(index: number): void;
}

/** The grid of one page: header and the rows in view (a new page starts at its top). */
function PageRows({ columns, rows, firstIndex, total, sort, onSort, selected, onSelect }: PageRowsProps) {
  const { first, last, onScroll } = useVisibleRows(rows.length);
  const template = useMemo(() => gridColumns(columns, rows, total), [columns, rows, total]);
  return (
    <div className="results-grid" onScroll={onScroll} role="grid" aria-label="Query results" aria-rowcount={total + 1}>
      <HeaderRow columns={columns} template={template} sort={sort} onSort={onSort} />
      <div style={{ height: rows.length * rowHeight, position: 'relative' }}>
        {rows.slice(first, last).map((row, i) => (
          <GridRow
            key={first + i}
            row={row}
            index={first + i}
            number={firstIndex + first + i + 1}
            columns={columns}
            template={template}
            selected={selected === first + i}
            onSelect={onSelect}
          />
        ))}
      </div>
    </div>
  );
}
