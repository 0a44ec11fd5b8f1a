import type { Json } from '@duckdb/node-api';
import type { ResultPage, SqlResult } from '../../contract/index.js';
import type { ResultHeader } from './job-record.js';

/** Rows per stored chunk at most: a page of up to 10,000 rows reads a few chunks, never the whole result. */
const chunkRowLimit = 1000;
/** Bytes per stored chunk at most (a single larger row is a chunk of its own). */
const chunkByteLimit = 1024 * 1024;

/** Why a result stored fewer rows than the engine returned. */
export interface ResultLimits {
  /** Bytes one job's rows may take in the store (`async.max_result_size`). */
  maxBytes: number;
  /** Rows the engine was asked for (`async.max_rows`), named when the engine cut the result. */
  maxRows: number;
}

/** A result cut into chunks ready to store, and its header. */
export interface EncodedResult {
  header: ResultHeader;
  chunks: string[];
}

/** The reason of a result cut at `async.max_result_size`. */
const bytesReason = (maxBytes: number) => `the result reached async.max_result_size (${maxBytes} bytes)`;

/**
 * Encodes a result's rows as JSON chunks, stopping before the row that would take the rows past
 * `limits.maxBytes`: the stored result is then `truncated`, with the byte limit named. Rows are
 * measured as the UTF-8 bytes of their JSON, which is what the store keeps.
 */
export function encodeResult(result: SqlResult, limits: ResultLimits): EncodedResult {
  const chunks: string[] = [];
  const header: ResultHeader = {
    columns: result.columns,
    row_count: 0,
    truncated: result.truncated,
    // The engine cuts a result at async.max_rows or, short of it, at async.max_result_size.
    truncated_reason: !result.truncated
      ? undefined
      : result.row_count >= limits.maxRows
        ? `the result reached async.max_rows (${limits.maxRows} rows)`
        : bytesReason(limits.maxBytes),
    elapsed_ms: result.elapsed_ms,
    chunk_starts: [],
    chunk_bytes: [],
    bytes: 0,
  };
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const chunk = `[${pending.join(',')}]`;
    header.chunk_starts.push(header.row_count - pending.length);
    header.chunk_bytes.push(pendingBytes);
    chunks.push(chunk);
    pending = [];
    pendingBytes = 0;
  };
  for (const row of result.rows) {
    const json = JSON.stringify(row);
    const size = Buffer.byteLength(json);
    const startsChunk =
      pending.length === 0 || pending.length >= chunkRowLimit || pendingBytes + size + 1 > chunkByteLimit;
    // A row costs its JSON plus a comma, or the brackets of the chunk it opens: exactly what is stored.
    const cost = size + (startsChunk ? 2 : 1);
    if (header.bytes + cost > limits.maxBytes) {
      header.truncated = true;
      header.truncated_reason = bytesReason(limits.maxBytes);
      break;
    }
    if (startsChunk) flush();
    pending.push(json);
    pendingBytes += cost;
    header.bytes += cost;
    header.row_count++;
  }
  flush();
  return { header, chunks };
}

/** Reads chunks `first` to `last` (inclusive) of a stored result, in order. */
export type ChunkReader = (first: number, last: number) => Promise<string[]>;

/** The index of the chunk holding row `row` (binary search over the chunk starts). */
function chunkOf(starts: readonly number[], row: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (starts[middle] <= row) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Rows `offset` to `offset + limit` of a stored result, reading only the chunks they lie in. */
export async function readPage(
  header: ResultHeader,
  offset: number,
  limit: number,
  read: ChunkReader,
): Promise<ResultPage> {
  const end = Math.min(offset + limit, header.row_count);
  const rows: Record<string, Json>[] = [];
  if (offset < end) {
    const first = chunkOf(header.chunk_starts, offset);
    const last = chunkOf(header.chunk_starts, end - 1);
    const chunks = await read(first, last);
    if (chunks.length !== last - first + 1) throw new Error(`stored result is missing chunks ${first}-${last}`);
    chunks.forEach((chunk, i) => {
      const start = header.chunk_starts[first + i];
      const chunkRows = JSON.parse(chunk) as Record<string, Json>[];
      rows.push(...chunkRows.slice(Math.max(0, offset - start), Math.max(0, end - start)));
    });
  }
  return {
    columns: header.columns,
    rows,
    row_count: rows.length,
    truncated: header.truncated,
    ...(header.truncated_reason ? { truncated_reason: header.truncated_reason } : {}),
    elapsed_ms: header.elapsed_ms,
    offset,
    total_row_count: header.row_count,
    next_offset: offset + rows.length < header.row_count ? offset + rows.length : null,
  };
}
