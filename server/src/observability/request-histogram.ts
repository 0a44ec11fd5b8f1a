import type client from 'prom-client';
import { registry, secondsBuckets } from './metrics.js';

/** Spring's `outcome` tag from a status code. */
export function outcomeOf(status: number): string {
  if (status >= 500) return 'SERVER_ERROR';
  if (status >= 400) return 'CLIENT_ERROR';
  if (status >= 300) return 'REDIRECTION';
  if (status >= 200) return 'SUCCESS';
  return 'INFORMATIONAL';
}

/** One line of the text format, as prom-client's registry reads it from a collector. */
interface CollectedValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

interface Series {
  labels: Record<string, string>;
  /** Observations per bucket, the last one beyond the largest bound (+Inf). */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * `http_server_requests_seconds`, Spring's name, as a histogram by method, route template, status, outcome
 * and mode. Written for the hot path: a request finds its series with one map lookup by a string key, where
 * prom-client's own histogram validates and hashes the label object on every observation. The registry reads
 * it like any other metric (prom-client's collector interface: `get()`).
 */
export class RequestHistogram {
  readonly name = 'http_server_requests_seconds';
  readonly help = 'HTTP server requests by method, route template, status, outcome and answer mode';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** Its labels, as prom-client's metrics declare them (the operations doc's test reads them). */
  readonly labelNames = ['method', 'route', 'status', 'outcome', 'mode'];
  private readonly series = new Map<string, Series>();

  constructor() {
    registry.registerMetric(this as unknown as client.Metric);
  }

  /** Counts one request that took `seconds`. */
  observe(method: string, route: string, status: number, mode: string, seconds: number): void {
    this.count(this.seriesOf(method, route, status, mode), seconds);
  }

  /**
   * The counter of one series, for a caller that knows the labels before the request (a prepared answer): it finds
   * its series once, on its first count, instead of by a key made per request.
   */
  recorder(method: string, route: string, status: number, mode: string): (seconds: number) => void {
    let series: Series | undefined;
    return (seconds) => this.count((series ??= this.seriesOf(method, route, status, mode)), seconds);
  }

  private seriesOf(method: string, route: string, status: number, mode: string): Series {
    const key = `${method} ${status} ${mode} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      const labels = { method, route, status: String(status), outcome: outcomeOf(status), mode };
      series = { labels, counts: new Array<number>(secondsBuckets.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    return series;
  }

  private count(series: Series, seconds: number): void {
    let bucket = 0;
    while (bucket < secondsBuckets.length && seconds > secondsBuckets[bucket]) bucket++;
    series.counts[bucket]++;
    series.sum += seconds;
    series.count++;
  }

  /** prom-client's collector interface: cumulative buckets, sum and count of every series. */
  get(): { name: string; help: string; type: string; aggregator: string; values: CollectedValue[] } {
    const values: CollectedValue[] = [];
    for (const { labels, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      secondsBuckets.forEach((le, index) => {
        cumulative += counts[index];
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/** The one request histogram of this process (made on first use, so that METRICS_ENABLED=false leaves it out). */
let shared: RequestHistogram | undefined;

/** The process's request histogram. */
export function requestHistogram(): RequestHistogram {
  shared ??= new RequestHistogram();
  return shared;
}
