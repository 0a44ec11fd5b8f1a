import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { TrinoSettings } from '../trino-settings.js';

/** A column of a Trino result page. */
export interface TrinoColumn {
  name: string;
  type: string;
}

/** The error of a FAILED page (Trino's QueryError). */
export interface TrinoQueryError {
  message: string;
  errorName?: string;
  errorType?: string;
  errorLocation?: { lineNumber: number; columnNumber: number };
}

/** One answer of the client protocol (Trino's QueryResults): `nextUri` until the query is done. */
export interface TrinoPage {
  id: string;
  nextUri?: string;
  columns?: TrinoColumn[];
  data?: unknown[][];
  error?: TrinoQueryError;
  stats?: { state?: string };
}

// A JSON string, or an integer literal of 16 digits or more that is not part of a fraction or an exponent.
const longIntegerOrString = /"(?:[^"\\]|\\.)*"|(?<![\w.+-])-?\d{16,}(?![\w.])/g;

/**
 * A page of the client protocol, parsed without losing digits: Trino writes BIGINT as a JSON number, which
 * `JSON.parse` rounds beyond 2^53, so integers that are not safe become strings first (the documented shape of
 * such a BIGINT). A page with no run of 16 digits, the common case, goes to `JSON.parse` as it is.
 */
export function parseTrinoPage(text: string): TrinoPage {
  if (!/\d{16}/.test(text)) return JSON.parse(text) as TrinoPage;
  const lossless = text.replace(longIntegerOrString, (token) =>
    token.startsWith('"') || Number.isSafeInteger(Number(token)) ? token : `"${token}"`,
  );
  return JSON.parse(lossless) as TrinoPage;
}

/** A request Trino (or its token endpoint) answered with an HTTP error status. */
export class TrinoHttpError extends Error {
  constructor(
    readonly status: number,
    /** The `WWW-Authenticate` challenge of a 401, naming what Trino wants instead. */
    readonly challenge?: string,
  ) {
    super(`answered HTTP ${status}${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}`);
  }
}

/** Trino's type names whose documented name (DuckDB's, docs/query.md "Result") is another. */
const documentedTypes: [RegExp, string][] = [
  [/^varchar(\(\d+\))?$|^char(\(\d+\))?$/, 'VARCHAR'],
  [/^timestamp(\(\d+\))? with time zone$/, 'TIMESTAMP WITH TIME ZONE'],
  [/^timestamp(\(\d+\))?$/, 'TIMESTAMP'],
  [/^time(\(\d+\))?$/, 'TIME'],
  [/^real$/, 'FLOAT'],
  [/^varbinary$/, 'BLOB'],
];

/** A Trino column type under the service's documented name: `bigint` BIGINT, `varchar(20)` VARCHAR, ... */
export function documentedType(trinoType: string): string {
  const type = trinoType.toLowerCase();
  const array = /^array\((.*)\)$/.exec(type);
  if (array) return `${documentedType(array[1])}[]`;
  if (type.startsWith('row(') || type.startsWith('map(')) return type.toUpperCase();
  for (const [pattern, name] of documentedTypes) if (pattern.test(type)) return name;
  return type.toUpperCase();
}

/** Statuses of the client protocol that mean "busy, ask again" (Trino's documentation: retry with back-off). */
const retryStatuses = new Set([502, 503, 504]);
/** An OAuth2 token is renewed this long before it expires, so no request carries one that lapses on the way. */
const tokenMarginMs = 30_000;
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Trino's client protocol over HTTP(S): `POST /v1/statement`, then each `nextUri` until the last page,
 * `DELETE nextUri` to cancel. Every request carries the session headers (user, source, client tags,
 * catalog, schema, session properties) and the configured credentials: Basic, a JWT, or an OAuth2
 * client-credentials token kept until shortly before it expires. HTTPS trusts `ca_file` when given, else
 * Node's trusted CAs.
 */
export class TrinoConnection {
  private readonly agent: http.Agent;
  private token?: { value: string; until: number };

  /** `session`: the session properties every request sets (`X-Trino-Session`), e.g. `max_recursion_depth`. */
  constructor(
    private readonly settings: TrinoSettings,
    private readonly session: Record<string, string> = {},
  ) {
    this.agent = settings.server.startsWith('https://')
      ? new https.Agent({ keepAlive: true, ca: settings.caFile ? fs.readFileSync(settings.caFile) : undefined })
      : new http.Agent({ keepAlive: true });
  }

  /** Sends a statement: the first page, carrying the query id and the `nextUri` to follow. */
  start(sql: string, signal: AbortSignal): Promise<TrinoPage> {
    return this.call('POST', `${this.settings.server}/v1/statement`, sql, signal);
  }

  /** The page at `nextUri`. */
  next(nextUri: string, signal: AbortSignal): Promise<TrinoPage> {
    return this.call('GET', nextUri, undefined, signal);
  }

  /** Cancels a running query through its `nextUri` (or `/v1/query/<id>` when only the id is known). */
  async cancel(uri: string, signal: AbortSignal): Promise<void> {
    await this.send('DELETE', uri, undefined, await this.headers(signal), signal);
  }

  /**
   * Every row of a small statement (catalogue queries: information_schema listings), following `nextUri` to the
   * last page; a FAILED page throws its message. A statement left unfinished is cancelled at Trino.
   */
  async rows(sql: string, signal: AbortSignal): Promise<unknown[][]> {
    const rows: unknown[][] = [];
    let page = await this.start(sql, signal);
    try {
      for (;;) {
        if (page.error) throw new Error(page.error.message);
        rows.push(...(page.data ?? []));
        if (!page.nextUri) return rows;
        page = await this.next(page.nextUri, signal);
      }
    } finally {
      if (page.nextUri) void this.cancel(page.nextUri, AbortSignal.timeout(10_000)).catch(() => undefined);
    }
  }

  /** The URL that cancels a query known only by its id (a job another replica started). */
  queryUri(queryId: string): string {
    return `${this.settings.server}/v1/query/${encodeURIComponent(queryId)}`;
  }

  close(): void {
    this.agent.destroy();
  }

  /** One protocol request, retried on 502/503/504, and once with a fresh token when an OAuth2 token is refused. */
  private async call(method: string, url: string, body: string | undefined, signal: AbortSignal): Promise<TrinoPage> {
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.send(method, url, body, await this.headers(signal), signal);
      if (answer.status === 200) return parseTrinoPage(answer.body);
      if (retryStatuses.has(answer.status) && attempt < this.settings.retries) {
        await sleep(Math.min(50 * 2 ** attempt, 1000), signal);
        continue;
      }
      if (answer.status === 401 && this.settings.auth.kind === 'oauth2' && !renewed) {
        renewed = true;
        this.token = undefined;
        continue;
      }
      throw new TrinoHttpError(answer.status, answer.headers['www-authenticate']);
    }
  }

  private async headers(signal: AbortSignal): Promise<Record<string, string>> {
    const s = this.settings;
    const headers: Record<string, string> = { 'X-Trino-User': s.user, 'X-Trino-Source': s.source };
    if (s.clientTags.length) headers['X-Trino-Client-Tags'] = s.clientTags.join(',');
    if (s.catalog) headers['X-Trino-Catalog'] = s.catalog;
    if (s.schema) headers['X-Trino-Schema'] = s.schema;
    const properties = Object.entries(this.session);
    if (properties.length) headers['X-Trino-Session'] = properties.map(([k, v]) => `${k}=${v}`).join(',');
    const auth = s.auth;
    if (auth.kind === 'password')
      headers.Authorization = `Basic ${Buffer.from(`${s.user}:${auth.password}`).toString('base64')}`;
    else if (auth.kind === 'jwt') headers.Authorization = `Bearer ${auth.token}`;
    else if (auth.kind === 'oauth2') headers.Authorization = `Bearer ${await this.oauth2Token(signal)}`;
    return headers;
  }

  /** The client-credentials token (RFC 6749 section 4.4), fetched when there is none or it is about to expire. */
  private async oauth2Token(signal: AbortSignal): Promise<string> {
    if (this.token && Date.now() < this.token.until) return this.token.value;
    const auth = this.settings.auth;
    if (auth.kind !== 'oauth2') throw new Error('not OAuth2');
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (auth.scope) form.set('scope', auth.scope);
    const basic = Buffer.from(`${encodeURIComponent(auth.clientId)}:${encodeURIComponent(auth.clientSecret)}`);
    const answer = await this.send(
      'POST',
      auth.tokenUrl,
      form.toString(),
      { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${basic.toString('base64')}` },
      signal,
    );
    if (answer.status !== 200) throw new Error(`the OAuth2 token endpoint answered HTTP ${answer.status}`);
    const token = JSON.parse(answer.body) as { access_token?: string; expires_in?: number };
    if (!token.access_token) throw new Error('the OAuth2 token endpoint answered no access_token');
    const lifetimeMs = (token.expires_in ?? 300) * 1000;
    this.token = { value: token.access_token, until: Date.now() + Math.max(0, lifetimeMs - tokenMarginMs) };
    return token.access_token;
  }

  private send(
    method: string,
    url: string,
    body: string | undefined,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<Answer> {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    // The token endpoint may live elsewhere: only Trino's own origin uses the agent holding Trino's CA.
    const agent = target.origin === new URL(this.settings.server).origin ? this.agent : undefined;
    return new Promise<Answer>((resolve, reject) => {
      const request = (secure ? https : http).request(target, { method, headers, agent, signal }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      request.on('error', reject);
      request.end(body);
    });
  }
}
