import { SourceUnavailableError } from '../../core/domain-errors.js';
import fs from 'node:fs';
import readline from 'node:readline';
import type { SettingsReader } from '../settings-reader.js';
import { StreamConnector, type RowPredicate } from './stream-connector.js';
import { fieldValue, readStreamTable, type StreamTableSettings } from './stream-fields.js';
import { type ColumnInfo, type ScanRequest } from './types.js';

interface LogTable extends StreamTableSettings {
  path: string;
  /** The event field holding the event time (ISO 8601 or epoch milliseconds). */
  timestampField?: string;
}

export interface NdjsonSettings {
  tables: LogTable[];
}

const metadata: ColumnInfo[] = [
  { name: 'sequence', type: 'BIGINT' },
  { name: 'timestamp', type: 'TIMESTAMP WITH TIME ZONE' },
];

/** Reads the settings of an `ndjson` source: one append-only log file per table. */
export function readNdjsonSettings(reader: SettingsReader, baseDir: string): NdjsonSettings {
  const tables = reader.list('tables').map((t) => ({
    ...readStreamTable(t, ['sequence', 'timestamp'], ['path', 'timestamp_field']),
    path: t.path('path', baseDir),
    timestampField: t.optionalString('timestamp_field'),
  }));
  if (tables.length === 0) reader.fail('tables', 'an ndjson source needs "tables", each with a "path" and "fields"');
  return { tables };
}

/**
 * An append-only NDJSON event log as a stream that needs no server: each complete line is an event;
 * `sequence` is its line number and `timestamp` its configured time field. A line still being written
 * (no newline yet) or not valid JSON is skipped, as a consumer of the log would.
 */
export class NdjsonLogConnector extends StreamConnector<LogTable> {
  constructor(
    source: string,
    private readonly settings: NdjsonSettings,
  ) {
    super(source, settings.tables, metadata);
  }

  protected batches(table: LogTable, request: ScanRequest, predicate: RowPredicate): AsyncGenerator<unknown[][]> {
    if (!fs.existsSync(table.path))
      throw new SourceUnavailableError(this.source, `log file ${table.path} does not exist`);
    const size = fs.statSync(table.path).size;
    const columns = request.columns;
    const eventRow = (line: string, sequence: number): unknown[][] => {
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        return [];
      }
      if (event === null || typeof event !== 'object' || Array.isArray(event)) return [];
      const record = event as Record<string, unknown>;
      const row = columns.map((c) => {
        if (c.name === 'sequence') return sequence;
        if (c.name === 'timestamp')
          return table.timestampField ? fieldValue(record[table.timestampField], 'TIMESTAMPTZ') : null;
        return fieldValue(record[c.name], c.type);
      });
      return predicate.test(row) ? [row] : [];
    };
    return readLines(table.path, size, request.deadline.signal, eventRow);
  }

  async check(): Promise<Record<string, unknown>> {
    const missing = this.settings.tables.filter((t) => !fs.existsSync(t.path));
    if (missing.length > 0) throw new SourceUnavailableError(this.source, `log file ${missing[0].path} does not exist`);
    return { tables: this.settings.tables.length };
  }
}

/**
 * The complete lines of `file` up to `size` (the size seen at the start, so events appended meanwhile
 * do not make the scan endless), each turned into rows by `rowsOf`, in batches.
 */
async function* readLines(
  file: string,
  size: number,
  signal: AbortSignal,
  rowsOf: (line: string, sequence: number) => unknown[][],
): AsyncGenerator<unknown[][]> {
  const input = fs.createReadStream(file, { end: Math.max(0, size - 1), signal });
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let sequence = 0;
  let batch: unknown[][] = [];
  let pending: string | undefined;
  for await (const line of lines) {
    if (pending !== undefined) batch.push(...rowsOf(pending, sequence));
    sequence++;
    pending = line;
    if (batch.length >= 2048) {
      yield batch;
      batch = [];
    }
  }
  // The last line counts only when the file ends with a newline (the event is complete).
  if (pending !== undefined && size > 0 && lastByte(file, size) === 0x0a) batch.push(...rowsOf(pending, sequence));
  if (batch.length > 0) yield batch;
}

function lastByte(file: string, size: number): number {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1);
    fs.readSync(fd, buffer, 0, 1, size - 1);
    return buffer[0];
  } finally {
    fs.closeSync(fd);
  }
}
