import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { Json } from '@duckdb/node-api';
import type { ResultColumn, SqlResult } from '../engine/result-format.js';

export type JobStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** The status document of one async query (DESIGN.md §6), as stored and served. */
export interface JobRecord {
  query_id: string;
  status: JobStatus;
  submitted_at: string;
  started_at: string | null;
  completed_at: string | null;
  error: string | null;
  query: string;
}

/** The part of a result stored beside its rows. */
interface ResultHeader {
  columns: ResultColumn[];
  row_count: number;
  truncated: boolean;
  elapsed_ms: number;
}

/** A page of a stored result: the SQL result shape plus where the page sits. */
export interface ResultPage extends SqlResult {
  offset: number;
  total_row_count: number;
  next_offset: number | null;
}

const idPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `id` has the form of a job id: anything else never reaches the file system. */
export const isJobId = (id: string): boolean => idPattern.test(id);

/** Writes a file whole or not at all (temporary file, then rename). */
function writeAtomically(file: string, content: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, content);
  fs.renameSync(temporary, file);
}

/**
 * Async query jobs on disk, in `<DATA_DIR>/query-jobs`: `<id>.json` holds the status, `<id>.header.json`
 * and `<id>.rows.ndjson` the result. Everything survives a restart.
 */
export class JobStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'query-jobs');
    fs.mkdirSync(this.dir, { recursive: true });
  }

  private file(id: string, suffix: string): string {
    if (!isJobId(id)) throw new Error(`not a job id: ${id}`);
    return path.join(this.dir, `${id}${suffix}`);
  }

  save(record: JobRecord): void {
    writeAtomically(this.file(record.query_id, '.json'), JSON.stringify(record));
  }

  get(id: string): JobRecord | undefined {
    if (!isJobId(id)) return undefined;
    try {
      return JSON.parse(fs.readFileSync(this.file(id, '.json'), 'utf8')) as JobRecord;
    } catch {
      return undefined;
    }
  }

  /** Every stored job (unreadable files are skipped). */
  all(): JobRecord[] {
    return fs
      .readdirSync(this.dir)
      .filter((name) => name.endsWith('.json') && !name.endsWith('.header.json') && isJobId(name.slice(0, -5)))
      .map((name) => this.get(name.slice(0, -5)))
      .filter((record): record is JobRecord => record !== undefined);
  }

  /** Stores a result: rows first, then the header, so a header always has its rows. */
  saveResult(id: string, result: SqlResult): void {
    writeAtomically(this.file(id, '.rows.ndjson'), result.rows.map((row) => JSON.stringify(row)).join('\n') + (result.rows.length ? '\n' : ''));
    const header: ResultHeader = { columns: result.columns, row_count: result.row_count, truncated: result.truncated, elapsed_ms: result.elapsed_ms };
    writeAtomically(this.file(id, '.header.json'), JSON.stringify(header));
  }

  /** Rows `offset` to `offset + limit` of a stored result, or undefined when it has none. */
  async page(id: string, offset: number, limit: number): Promise<ResultPage | undefined> {
    let header: ResultHeader;
    try {
      header = JSON.parse(fs.readFileSync(this.file(id, '.header.json'), 'utf8')) as ResultHeader;
    } catch {
      return undefined;
    }
    const rows: Record<string, Json>[] = [];
    if (offset < header.row_count) {
      const lines = readline.createInterface({ input: fs.createReadStream(this.file(id, '.rows.ndjson')), crlfDelay: Infinity });
      let index = 0;
      for await (const line of lines) {
        if (index >= offset + limit) break;
        if (index >= offset && line !== '') rows.push(JSON.parse(line) as Record<string, Json>);
        index++;
      }
      lines.close();
    }
    const end = offset + rows.length;
    return {
      columns: header.columns,
      rows,
      row_count: rows.length,
      truncated: header.truncated,
      elapsed_ms: header.elapsed_ms,
      offset,
      total_row_count: header.row_count,
      next_offset: end < header.row_count ? end : null,
    };
  }

  remove(id: string): void {
    for (const suffix of ['.json', '.header.json', '.rows.ndjson']) fs.rmSync(this.file(id, suffix), { force: true });
  }
}
