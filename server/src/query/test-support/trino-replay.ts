import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** Failures as Trino reports them, each sent for a statement that contains `when`. */
const recordedFailures = [
  {
    when: 'missing_table',
    error: trinoError("line 1:15: Table 'hive.lake.missing_table' does not exist", 46, 'TABLE_NOT_FOUND', [1, 15]),
  },
  { when: 'bad_syntax', error: trinoError("line 2:3: mismatched input 'bad_syntax'", 1, 'SYNTAX_ERROR', [2, 3]) },
  {
    when: 'getenv(',
    error: trinoError("line 1:8: Function 'getenv' not registered", 44, 'FUNCTION_NOT_FOUND', [1, 8]),
  },
];

/** A user error of Trino's `QueryError` shape, at a line and column of the statement. */
function trinoError(message: string, errorCode: number, errorName: string, [lineNumber, columnNumber]: number[]) {
  return {
    message,
    errorCode,
    errorName,
    errorType: 'USER_ERROR',
    errorLocation: { lineNumber, columnNumber },
    failureInfo: { type: 'io.trino.spi.TrinoException', message: 'x', suppressed: [], stack: [] },
  };
}

/**
 * A small HTTP server that plays Trino's client protocol as Trino's documentation describes it:
 * `POST /v1/statement` answers QUEUED with a `nextUri`; following `nextUri`s go through RUNNING pages
 * carrying `columns` and `data` to FINISHED (no `nextUri`); failures come as a FAILED page with an
 * `error`; a 503 asks the client to retry; `DELETE` on a query cancels it. What the statement holds
 * picks the script: `missing_table`, `bad_syntax`, `getenv(`, `slow` or `big` (many pages), anything else: two
 * data pages. Every request is recorded. With `tls` it answers over HTTPS; with `accepts`, a request whose
 * Authorization header it refuses gets 401 with a `WWW-Authenticate` challenge, as Trino's authenticators do.
 */
export class TrinoReplayServer {
  constructor(
    private readonly options: {
      tls?: { key: string; cert: string };
      accepts?: (authorization?: string) => boolean;
      /** What `information_schema.columns` holds: [schema, table, column, Trino type] rows. */
      columns?: [string, string, string, string][];
    } = {},
  ) {
    const handler = (request: http.IncomingMessage, response: http.ServerResponse) => this.handle(request, response);
    this.server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  }

  readonly requests: { method: string; url: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  readonly statements: string[] = [];
  readonly cancelled = new Set<string>();
  private readonly server: http.Server;
  private readonly queries = new Map<string, { sql: string; failedOnce: boolean }>();
  private counter = 0;
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** How many times the server answered 503. */
  get retries(): number {
    return this.requests.filter((r) => r.url.includes('/queued/')).length - this.queries.size;
  }

  private send(response: http.ServerResponse, status: number, body?: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(body === undefined ? '' : JSON.stringify(body));
  }

  private page(id: string, state: string, next?: string, extra: Record<string, unknown> = {}) {
    return {
      id,
      infoUri: `${this.url}/ui/query.html?${id}`,
      ...(next ? { nextUri: `${this.url}${next}` } : {}),
      stats: { state, queued: state === 'QUEUED', scheduled: state !== 'QUEUED', nodes: 1, processedRows: 0 },
      ...extra,
    };
  }

  /** An information_schema.columns answer: the rows of `columns` the statement's schema (and table) select. */
  private catalogPage(id: string, sql: string) {
    const schema = /table_schema = '([^']*)'/.exec(sql)?.[1];
    const table = /table_name = '([^']*)'/.exec(sql)?.[1];
    const data = (this.options.columns ?? [])
      .filter(([s, t]) => s === schema && (table === undefined || t === table))
      .map(([, t, c, type]) => [t, c, type]);
    const columns = ['table_name', 'column_name', 'data_type'].map((name) => ({ name, type: 'varchar' }));
    return this.page(id, 'FINISHED', undefined, { columns, data });
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      this.requests.push({ method: request.method ?? '', url: request.url ?? '', body, headers: request.headers });
      const url = request.url ?? '';
      if (this.options.accepts && !this.options.accepts(request.headers.authorization)) {
        response.writeHead(401, { 'www-authenticate': 'Bearer realm="trino"' });
        return response.end();
      }
      if (request.method === 'POST' && url === '/v1/statement') {
        const id = `20240101_000000_${String(++this.counter).padStart(5, '0')}_replay`;
        this.queries.set(id, { sql: body, failedOnce: false });
        this.statements.push(body);
        return this.send(response, 200, this.page(id, 'QUEUED', `/v1/statement/queued/${id}/1`));
      }
      const match = /^\/v1\/(?:statement\/(queued|executing)\/|query\/)([^/]+)(?:\/(\d+))?/.exec(url);
      const query = match ? this.queries.get(match[2]) : undefined;
      if (!match || !query) return this.send(response, 404, { message: 'no such query' });
      const id = match[2];
      if (request.method === 'DELETE') {
        this.cancelled.add(id);
        return this.send(response, 204);
      }
      const token = Number(match[3] ?? 0);
      if (match[1] === 'queued') {
        // Trino's documentation: 502, 503 and 504 mean "retry after a short wait".
        if (!query.failedOnce) {
          query.failedOnce = true;
          return this.send(response, 503);
        }
        const failure = recordedFailures.find((f) => query.sql.includes(f.when));
        if (failure) return this.send(response, 200, this.page(id, 'FAILED', undefined, { error: failure.error }));
        return this.send(response, 200, this.page(id, 'QUEUED', `/v1/statement/executing/${id}/1`));
      }
      const columns = [
        { name: 'region', type: 'varchar', typeSignature: { rawType: 'varchar', arguments: [] } },
        { name: 'orders', type: 'bigint', typeSignature: { rawType: 'bigint', arguments: [] } },
        { name: 'revenue', type: 'decimal(12,2)', typeSignature: { rawType: 'decimal', arguments: [] } },
        { name: 'last_order', type: 'timestamp(3)', typeSignature: { rawType: 'timestamp', arguments: [] } },
        {
          name: 'first_seen',
          type: 'timestamp(3) with time zone',
          typeSignature: { rawType: 'timestamp with time zone', arguments: [] },
        },
      ];
      if (query.sql.includes('information_schema.columns'))
        return this.send(response, 200, this.catalogPage(id, query.sql));
      if (query.sql.includes('slow')) {
        // Never finishes: a RUNNING page without data after a pause, forever.
        setTimeout(
          () => this.send(response, 200, this.page(id, 'RUNNING', `/v1/statement/executing/${id}/${token + 1}`)),
          30,
        );
        return;
      }
      if (query.sql.includes('big')) {
        const data = Array.from({ length: 100 }, (_, i) => [
          `r${token * 100 + i}`,
          token * 100 + i,
          '1.00',
          '2024-01-01 00:00:00.000',
          '2024-01-01 00:00:00.000 UTC',
        ]);
        return this.send(
          response,
          200,
          this.page(id, 'RUNNING', `/v1/statement/executing/${id}/${token + 1}`, { columns, data }),
        );
      }
      if (token === 1) {
        return this.send(
          response,
          200,
          this.page(id, 'RUNNING', `/v1/statement/executing/${id}/2`, {
            columns,
            data: [['EU', 12, '1234.50', '2024-03-01 10:11:12.500', '2024-01-02 03:04:05.000 UTC']],
          }),
        );
      }
      if (token === 2) {
        return this.send(
          response,
          200,
          this.page(id, 'RUNNING', `/v1/statement/executing/${id}/3`, {
            columns,
            data: [['NA', 7, '99.99', '2024-03-02 00:00:00.000', '2024-01-03 00:00:00.000 UTC']],
          }),
        );
      }
      return this.send(response, 200, this.page(id, 'FINISHED', undefined, { columns }));
    });
  }
}
