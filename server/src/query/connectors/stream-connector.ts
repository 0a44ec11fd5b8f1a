import type { Deadline } from '../deadline.js';
import { rowPredicate } from './filters.js';
import { streamColumns, type StreamTableSettings } from './stream-fields.js';
import {
  findTable,
  type ColumnInfo,
  type Connector,
  type ScanRequest,
  type ScanResult,
  type TableInfo,
} from './types.js';

/** The filters a connector tests on each row itself, and which of the scan's filters they are. */
export type RowPredicate = ReturnType<typeof rowPredicate>;

/**
 * What the streaming connectors share: their tables are the configured ones, each with the stream's
 * metadata columns before its fields, and a scan reads a table's events in batches of rows, keeping
 * those that pass the filters the connector can test itself.
 */
export abstract class StreamConnector<Table extends StreamTableSettings> implements Connector {
  constructor(
    protected readonly source: string,
    private readonly tables: readonly Table[],
    private readonly metadata: readonly ColumnInfo[],
  ) {}

  async listTables(): Promise<TableInfo[]> {
    return this.tables.map((t) => ({ name: t.name, columns: streamColumns(this.metadata, t.fields) }));
  }

  async describeTable(name: string): Promise<TableInfo | undefined> {
    return findTable(await this.listTables(), name);
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    const table = this.tables.find((t) => t.name === request.table.name)!;
    const predicate = rowPredicate(request.filters, request.columns);
    return { output: { kind: 'rows', batches: this.batches(table, request, predicate) }, pushed: predicate.applied };
  }

  /**
   * The rows of `table` that pass `predicate`, values in `request.columns` order, in batches. Called when
   * the scan is made: connect or open only once the first batch is asked for (as an async generator
   * does), so a scan that is never read holds nothing.
   */
  protected abstract batches(table: Table, request: ScanRequest, predicate: RowPredicate): AsyncGenerator<unknown[][]>;

  abstract check(deadline: Deadline): Promise<Record<string, unknown>>;

  async close(): Promise<void> {}
}
