import client from 'prom-client';
import { inSpan } from './tracing.js';

/**
 * The server's one metric registry, shared by every part that counts something (one registry per process,
 * as Micrometer's global one in Spring): instrumentation points import the metric they add to and make one
 * call. Names follow Prometheus' conventions (`_total`, `_seconds`, `_bytes`); labels take values from
 * closed sets (kinds, causes, source names of the query folder), never from client input.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry });

const counter = (name: string, help: string, labelNames: string[] = []) =>
  new client.Counter({ name, help, labelNames, registers: [registry] });
const gauge = (name: string, help: string, labelNames: string[] = []) =>
  new client.Gauge({ name, help, labelNames, registers: [registry] });
const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) =>
  new client.Histogram({ name, help, labelNames, buckets, registers: [registry] });

/** Latency buckets in seconds, from a cached mock answer to a long query. */
export const secondsBuckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Handler modules: one process per module. */
export const handlerMetrics = {
  /** Calls by outcome: ok, http-error, failed, timeout, too-large, unavailable. */
  calls: counter('handler_calls_total', 'Handler calls by outcome', ['outcome']),
  timeouts: counter('handler_timeouts_total', 'Handler calls cut off at HANDLER_TIMEOUT_MS'),
  /** Restarts by cause: crash, memory, timeout, hung. */
  restarts: counter('handler_restarts_total', 'Handler module processes restarted, by cause', ['cause']),
  /** The resident memory of a module's process tree (its file name: loaded files, never client input). */
  resident: gauge('handler_process_resident_bytes', 'Resident memory of a handler module process tree', ['module']),
  /** The resident size at which the gateway restarts the module (twice HANDLER_MEMORY_MB). */
  limit: gauge('handler_process_memory_limit_bytes', 'Resident memory at which a handler module is restarted', [
    'module',
  ]),
};

/** Records the resident memory of a module's processes, read for its memory bound, with that bound. */
export function recordHandlerMemory(module: string, resident: number, limit: number): void {
  handlerMetrics.resident.set({ module }, resident);
  handlerMetrics.limit.set({ module }, limit);
}

/** Drops a module's memory series when its process ends (restarted, unloaded or stopped). */
export function forgetHandlerMemory(module: string): void {
  handlerMetrics.resident.remove({ module });
  handlerMetrics.limit.remove({ module });
}

/** Workspace reloads (specs and handlers). */
export const reloadMetrics = {
  reloads: counter('gateway_reloads_total', 'Workspace reloads'),
  duration: histogram('gateway_reload_duration_seconds', 'Time one workspace reload took', [], secondsBuckets),
  /** Files that failed to load by kind: spec or handler. */
  failures: counter('gateway_reload_failures_total', 'Workspace files that failed to load, by kind', ['kind']),
  specs: gauge('gateway_loaded_specs', 'Specs loaded and served'),
  handlers: gauge('gateway_loaded_handlers', 'Handler modules loaded and served'),
};

/** The query service; `kind` is what asked for the query: `sql`, `sparql`, `natural-language` or `async`. */
export const queryMetrics = {
  duration: histogram('query_duration_seconds', 'Query time by kind and outcome', ['kind', 'outcome'], secondsBuckets),
  rows: counter('query_rows_total', 'Rows answered by kind', ['kind']),
  bytes: counter('query_result_bytes_total', 'Size of the answered rows as JSON, by kind', ['kind']),
  truncations: counter('query_truncations_total', 'Results cut at a row or byte limit, by kind', ['kind']),
  timeouts: counter('query_timeouts_total', 'Queries cut off at their deadline, by kind', ['kind']),
  sourceErrors: counter('query_source_errors_total', 'Source reads that failed, by source', ['source']),
  running: gauge('query_running', 'Queries running now'),
  queued: gauge('query_queued', 'Queries waiting for a slot'),
};

/** Authentication and token exchange. */
export const authMetrics = {
  logins: counter('auth_logins_total', 'Requests whose credentials were accepted, by scheme', ['scheme']),
  failures: counter('auth_failures_total', 'Requests refused for their credentials, by code', ['code']),
  throttled: counter('auth_throttled_total', 'Basic logins refused by the login throttle'),
  exchanges: counter('auth_token_exchanges_total', 'Token exchanges at the identity provider, by outcome', ['outcome']),
  exchangeCache: counter('auth_exchange_cache_total', 'Exchanged-token cache lookups by result (hit, miss)', [
    'result',
  ]),
};

const handlerAnswers: Record<string, string> = {
  result: 'ok',
  'http-error': 'http-error',
  failed: 'failed',
  'too-large': 'too-large',
};

/** Counts a handler process's message when it answers a call (by the message's type). */
export function countHandlerAnswer(type: string): void {
  const outcome = handlerAnswers[type];
  if (outcome !== undefined) handlerMetrics.calls.inc({ outcome });
}

/** Counts a handler call cut off at its timeout. */
export function countHandlerTimeout(): void {
  handlerMetrics.timeouts.inc();
  handlerMetrics.calls.inc({ outcome: 'timeout' });
}

/** Counts a handler module restart: `hung` when its event loop stopped answering, else by the reason's words. */
export function countHandlerRestart(reason: string, hung: boolean): void {
  const cause = hung ? 'hung' : /memory|heap/i.test(reason) ? 'memory' : 'crash';
  handlerMetrics.restarts.inc({ cause });
}

/** Records one workspace reload: its time, what it serves now, and the kind of every file that failed. */
export function recordReload(ms: number, loaded: { specs: number; handlers: number }, failedKinds: string[]): void {
  reloadMetrics.reloads.inc();
  reloadMetrics.duration.observe(ms / 1000);
  reloadMetrics.specs.set(loaded.specs);
  reloadMetrics.handlers.set(loaded.handlers);
  for (const kind of failedKinds) reloadMetrics.failures.inc({ kind });
}

/** Counts an authentication: accepted (with its scheme) or refused (with its code; throttled logins apart). */
export function countAuthentication(scheme: string, refusedCode?: string): void {
  if (refusedCode === undefined) authMetrics.logins.inc({ scheme });
  else if (refusedCode === 'LOGIN_THROTTLED') authMetrics.throttled.inc();
  else authMetrics.failures.inc({ code: refusedCode });
}

/** Runs a token exchange in its own span and counts its outcome (`auth_token_exchanges_total`). */
export function observeExchange<T>(exchange: () => Promise<T>): Promise<T> {
  return inSpan('token exchange', exchange).then(
    (identity) => {
      authMetrics.exchanges.inc({ outcome: 'success' });
      return identity;
    },
    (error: unknown) => {
      authMetrics.exchanges.inc({ outcome: 'failure' });
      throw error;
    },
  );
}

/**
 * Runs one query of `kind` and records its time, outcome, rows, truncation and timeout. A query that failed
 * at its deadline throws the domain error `QueryTimeout`.
 */
export async function observeQuery<T extends { row_count: number; truncated: boolean; bytes?: number }>(
  kind: string,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const done = (outcome: string) =>
    queryMetrics.duration.observe({ kind, outcome }, (performance.now() - started) / 1000);
  try {
    const result = await run();
    done('success');
    queryMetrics.rows.inc({ kind }, result.row_count);
    queryMetrics.bytes.inc({ kind }, result.bytes ?? 0);
    if (result.truncated) queryMetrics.truncations.inc({ kind });
    return result;
  } catch (error) {
    const timeout = (error as Error)?.name === 'QueryTimeout';
    if (timeout) queryMetrics.timeouts.inc({ kind });
    done(timeout ? 'timeout' : 'error');
    throw error;
  }
}

/** Takes an engine slot through `acquire`, counting the queries queued for one and running in one. */
export async function countedSlot(acquire: () => Promise<() => void>): Promise<() => void> {
  queryMetrics.queued.inc();
  let release: () => void;
  try {
    release = await acquire();
  } finally {
    queryMetrics.queued.dec();
  }
  queryMetrics.running.inc();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    queryMetrics.running.dec();
    release();
  };
}

/** The number of series the registry holds now: what the cardinality tests and the bench bound. */
export async function seriesCount(): Promise<number> {
  const metrics = await registry.getMetricsAsJSON();
  return metrics.reduce((sum, metric) => sum + metric.values.length, 0);
}
