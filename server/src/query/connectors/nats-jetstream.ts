import net from 'node:net';
import { connect, type NatsConnection } from 'nats';
import { Deadline } from '../deadline.js';
import type { SettingsReader } from '../settings-reader.js';
import { StreamConnector, type RowPredicate } from './stream-connector.js';
import { fieldValue, readStreamTable, type StreamTableSettings } from './stream-fields.js';
import { sourceFailure, type ColumnInfo, type Filter, type ScanRequest } from './types.js';

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
  const servers = reader
    .string('servers')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
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

/** Resolves once `server` sends its INFO greeting on a connection of our own, which is then closed. */
function greeting(server: string, deadline: Deadline): Promise<string> {
  const { hostname, port } = new URL(/^\w+:\/\//.test(server) ? server : `nats://${server}`);
  const socket = net.connect(Number(port || 4222), hostname);
  const greeted = new Promise<string>((resolve, reject) => {
    socket.once('data', (chunk: Buffer) =>
      chunk.toString('latin1').startsWith('INFO ')
        ? resolve(server)
        : reject(new Error(`${server} does not greet as a NATS server does`)),
    );
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`${server} closed the connection`)));
  });
  return deadline.bound(greeted, () => socket.destroy()).finally(() => socket.destroy());
}

/**
 * The first of `servers` to greet within the deadline. nats.js never closes the socket of a connection
 * attempt that timed out before the server's greeting (its transport closes connected sockets only), so
 * a server that accepts and never answers is found out here, on sockets that are ours to destroy, and
 * nats.js dials only a server that has just answered.
 */
async function firstGreeting(servers: readonly string[], deadline: Deadline): Promise<string> {
  // One deadline ends every probe: the query's, or ours once one of them has answered.
  deadline.throwIfExpired();
  const probes = new AbortController();
  const expire = () => probes.abort(deadline.signal.reason);
  deadline.signal.addEventListener('abort', expire, { once: true });
  try {
    const probing = Deadline.of(probes.signal);
    return await Promise.any(servers.map((server) => greeting(server, probing)));
  } catch (error) {
    throw deadline.expired ? deadline.signal.reason : ((error as AggregateError).errors?.[0] ?? error);
  } finally {
    deadline.signal.removeEventListener('abort', expire);
    probes.abort();
  }
}

/**
 * NATS JetStream through `nats`: a stream's retained messages as rows (`sequence`, `subject`,
 * `timestamp`, then the configured fields of the JSON payload), read with an ordered consumer up to
 * the last sequence at the start of the scan. `sequence >= n` filters start the consumer at `n`.
 */
export class NatsJetStreamConnector extends StreamConnector<JetStreamTable> {
  constructor(
    source: string,
    private readonly settings: NatsSettings,
  ) {
    super(source, settings.tables, metadata);
  }

  /**
   * A connection (server INFO and CONNECT included) within the deadline, with `wait`, which bounds one
   * of its requests by the deadline and closes the connection when it passes. nats.js takes no signal
   * while connecting: its own timeout is the time left, and a connection that comes late is closed.
   */
  private async connection(
    deadline: Deadline,
  ): Promise<{ nc: NatsConnection; wait: <T>(request: Promise<T>) => Promise<T> }> {
    try {
      const server = await firstGreeting(this.settings.servers, deadline);
      const opening = connect({
        servers: server,
        timeout: deadline.connectTimeoutMs(),
        reconnect: false,
        maxReconnectAttempts: 0,
      });
      const nc = await deadline.bound(opening, undefined, (late) => void late.close().catch(() => undefined));
      return { nc, wait: (request) => deadline.bound(request, () => void nc.close().catch(() => undefined)) };
    } catch (error) {
      throw sourceFailure(this.source, error, deadline);
    }
  }

  protected async *batches(
    table: JetStreamTable,
    request: ScanRequest,
    predicate: RowPredicate,
  ): AsyncGenerator<unknown[][]> {
    const { columns, deadline } = request;
    const start = startSequence(request.filters);
    const { nc, wait } = await this.connection(deadline);
    try {
      const jsm = await wait(nc.jetstreamManager());
      const info = await wait(jsm.streams.info(table.stream));
      const last = info.state.last_seq;
      if (info.state.messages === 0 || start > last) return;
      const consumer = await wait(
        nc.jetstream().consumers.get(table.stream, {
          opt_start_seq: start,
          ...(table.subject ? { filterSubjects: table.subject } : {}),
        }),
      );
      let read = 0;
      let done = false;
      while (!done) {
        const messages = (await wait(consumer.fetch({ max_messages: 1000, expires: 2000 })))[Symbol.asyncIterator]();
        const batch: unknown[][] = [];
        let received = 0;
        for (let next = await wait(messages.next()); !next.done; next = await wait(messages.next())) {
          const message = next.value;
          received++;
          read++;
          let payload: Record<string, unknown> = {};
          try {
            const parsed: unknown = JSON.parse(decoder.decode(message.data));
            if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
              payload = parsed as Record<string, unknown>;
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
            await messages.return?.();
            break;
          }
        }
        if (batch.length > 0) yield batch;
        if (received === 0) done = true;
      }
    } catch (error) {
      throw sourceFailure(this.source, error, deadline);
    } finally {
      await nc.close().catch(() => undefined);
    }
  }

  async check(deadline: Deadline): Promise<Record<string, unknown>> {
    const { nc, wait } = await this.connection(deadline);
    try {
      const jsm = await wait(nc.jetstreamManager());
      let messages = 0;
      for (const table of this.settings.tables) messages += (await wait(jsm.streams.info(table.stream))).state.messages;
      return { streams: this.settings.tables.length, messages };
    } catch (error) {
      throw sourceFailure(this.source, error, deadline);
    } finally {
      await nc.close().catch(() => undefined);
    }
  }
}
