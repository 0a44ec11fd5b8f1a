import { connect, type NatsConnection } from 'nats';
import type { SettingsReader } from '../settings-reader.js';
import { rowPredicate } from './filters.js';
import { fieldValue, readStreamTable, streamColumns, type StreamTableSettings } from './stream-fields.js';
import { findTable, SourceUnavailableError, type ColumnInfo, type Connector, type Filter, type ScanRequest, type ScanResult, type TableInfo } from './types.js';

interface JetStreamTable extends StreamTableSettings {
  stream: string;
  subject?: string;
}

export interface NatsSettings {
  servers: string[];
  tables: JetStreamTable[];
}

const metadata: ColumnInfo[] = [
  { name: 'sequence', type: 'BIGINT' },
  { name: 'subject', type: 'VARCHAR' },
  { name: 'timestamp', type: 'TIMESTAMP WITH TIME ZONE' },
];

/** Reads the settings of a `nats` source: one JetStream stream (optionally one subject of it) per table. */
export function readNatsSettings(reader: SettingsReader): NatsSettings {
  const servers = reader.string('servers').split(',').map((s) => s.trim()).filter(Boolean);
  const tables = reader.list('tables').map((t) => ({
    ...readStreamTable(t, ['sequence', 'subject', 'timestamp'], ['stream', 'subject']),
    stream: t.string('stream'),
    subject: t.optionalString('subject'),
  }));
  if (tables.length === 0) reader.fail('tables', 'a nats source needs "tables", each with a "stream" and "fields"');
  return { servers, tables };
}

/** The first sequence a scan needs, from `sequence >= n`, `sequence > n` and `sequence = n` filters. */
export function startSequence(filters: readonly Filter[]): number {
  let start = 1;
  for (const f of filters) {
    if (f.column !== 'sequence' || f.op === 'in' || typeof f.value !== 'number') continue;
    if (f.op === '>=' || f.op === '=') start = Math.max(start, Math.ceil(f.value));
    if (f.op === '>') start = Math.max(start, Math.floor(f.value) + 1);
  }
  return start;
}

const decoder = new TextDecoder();

/**
 * NATS JetStream through `nats`: a stream's retained messages as rows (`sequence`, `subject`,
 * `timestamp`, then the configured fields of the JSON payload), read with an ordered consumer up to
 * the last sequence at the start of the scan. `sequence >= n` filters start the consumer at `n`.
 */
export class NatsJetStreamConnector implements Connector {
  constructor(
    private readonly source: string,
    private readonly settings: NatsSettings,
  ) {}

  private async connection(): Promise<NatsConnection> {
    try {
      return await connect({ servers: this.settings.servers, timeout: 3000, reconnect: false, maxReconnectAttempts: 0 });
    } catch (error) {
      throw new SourceUnavailableError(this.source, (error as Error).message || String(error));
    }
  }

  async listTables(): Promise<TableInfo[]> {
    return this.settings.tables.map((t) => ({ name: t.name, columns: streamColumns(metadata, t.fields) }));
  }

  async describeTable(name: string): Promise<TableInfo | undefined> {
    return findTable(await this.listTables(), name);
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    const table = this.settings.tables.find((t) => t.name === request.table.name)!;
    const predicate = rowPredicate(request.filters, request.columns);
    const start = startSequence(request.filters);
    const source = this.source;
    const columns = request.columns;
    const open = () => this.connection();
    // The connection is made when rows are first read, so a scan that is never read holds none.
    async function* batches(): AsyncGenerator<unknown[][]> {
      const nc = await open();
      try {
        const jsm = await nc.jetstreamManager();
        const info = await jsm.streams.info(table.stream);
        const last = info.state.last_seq;
        if (info.state.messages === 0 || start > last) return;
        const consumer = await nc.jetstream().consumers.get(table.stream, { opt_start_seq: start, ...(table.subject ? { filterSubjects: table.subject } : {}) });
        let read = 0;
        let done = false;
        while (!done && !request.signal.aborted) {
          const messages = await consumer.fetch({ max_messages: 1000, expires: 2000 });
          const batch: unknown[][] = [];
          let received = 0;
          for await (const message of messages) {
            received++;
            read++;
            let payload: Record<string, unknown> = {};
            try {
              const parsed: unknown = JSON.parse(decoder.decode(message.data));
              if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) payload = parsed as Record<string, unknown>;
            } catch {
              // A payload that is not a JSON object still yields its metadata columns.
            }
            const row = columns.map((c) => {
              if (c.name === 'sequence') return message.seq;
              if (c.name === 'subject') return message.subject;
              if (c.name === 'timestamp') return new Date(Math.floor(message.info.timestampNanos / 1e6)).toISOString();
              return fieldValue(payload[c.name], c.type);
            });
            if (predicate.test(row)) batch.push(row);
            if (message.seq >= last || message.info.pending === 0 || read >= table.maxEvents) {
              done = true;
              break;
            }
          }
          if (batch.length > 0) yield batch;
          if (received === 0) done = true;
        }
        if (request.signal.aborted) throw request.signal.reason;
      } catch (error) {
        if (request.signal.aborted) throw error;
        throw new SourceUnavailableError(source, (error as Error).message);
      } finally {
        await nc.close().catch(() => undefined);
      }
    }
    return { output: { kind: 'rows', batches: batches() }, pushed: predicate.applied };
  }

  async check(): Promise<Record<string, unknown>> {
    const nc = await this.connection();
    try {
      const jsm = await nc.jetstreamManager();
      let messages = 0;
      for (const table of this.settings.tables) messages += (await jsm.streams.info(table.stream)).state.messages;
      return { streams: this.settings.tables.length, messages };
    } catch (error) {
      throw new SourceUnavailableError(this.source, (error as Error).message);
    } finally {
      await nc.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {}
}
