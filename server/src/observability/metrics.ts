import client from 'prom-client';

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
  memory: gauge('handler_process_memory_bytes', 'Resident memory of the handler module processes (sum)'),
};

/** Workspace reloads (specs and handlers). */
export const reloadMetrics = {
  reloads: counter('gateway_reloads_total', 'Workspace reloads'),
  duration: histogram('gateway_reload_duration_seconds', 'Time one workspace reload took', [], secondsBuckets),
  /** Files that failed to load by kind: spec or handler. */
  failures: counter('gateway_reload_failures_total', 'Workspace files that failed to load, by kind', ['kind']),
  specs: gauge('gateway_loaded_specs', 'Specs loaded and served'),
  handlers: gauge('gateway_loaded_handlers', 'Handler modules loaded and served'),
};

/** The query service; `kind` is sql, sparql, natural-language or async. */
export const queryMetrics = {
  duration: histogram('query_duration_seconds', 'Query time by kind and outcome', ['kind', 'outcome'], secondsBuckets),
  rows: counter('query_rows_total', 'Rows answered by kind', ['kind']),
  bytes: counter('query_result_bytes_total', 'Bytes of results answered by kind', ['kind']),
  truncations: counter('query_truncations_total', 'Results cut at a row or byte limit, by kind', ['kind']),
  timeouts: counter('query_timeouts_total', 'Queries cut off at their deadline, by kind', ['kind']),
  sourceErrors: counter('query_source_errors_total', 'Source reads that failed, by source', ['source']),
  running: gauge('query_running', 'Queries running now'),
  queued: gauge('query_queued', 'Queries waiting for a slot'),
  jobs: gauge('query_jobs', 'Async query jobs of this replica by state', ['state']),
  jobStore: histogram('query_job_store_seconds', 'Job store call latency by operation', ['operation'], secondsBuckets),
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

/** The number of series the registry holds now: what the cardinality tests and the bench bound. */
export async function seriesCount(): Promise<number> {
  const metrics = await registry.getMetricsAsJSON();
  return metrics.reduce((sum, metric) => sum + metric.values.length, 0);
}
