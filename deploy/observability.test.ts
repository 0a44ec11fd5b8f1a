import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../server/src/observability/metrics.js';
import '../server/src/observability/job-metrics.js';
import { requestHistogram } from '../server/src/observability/request-histogram.js';
import { metricsPath } from '../server/src/observability/observability.js';
import { shopItemRoute, shopSpec } from '../server/src/observability/test-support/shop.js';
import { makeWorkspace, removeWorkspace, startServer } from '../server/src/test-support/workspace.js';

const rulesFile = path.join(import.meta.dirname, 'prometheus/alerts.yaml');
const dashboardFile = path.join(import.meta.dirname, 'grafana/adaptive-gateway.json');
const run = promisify(execFile);

/** The metric names a PromQL expression reads: identifiers that are neither functions, keywords nor labels. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\$\w+/g, '')
    .replace(/"[^"]*"/g, '');
  const names = [...bare.matchAll(/\b([a-z_][a-z0-9_]*)\b(?!\s*\()/g)].map((m) => m[1]);
  return names.filter((name) => !['and', 'or', 'unless', 'le', 'bool', 'on', 'ignoring'].includes(name));
}

/** Every series name the server exposes: histograms by their `_bucket`, `_sum` and `_count`. */
async function exposedNames(): Promise<Set<string>> {
  requestHistogram();
  const names = new Set<string>();
  for (const metric of await registry.getMetricsAsJSON()) {
    const base = metric.name;
    if (String(metric.type) === 'histogram' || String(metric.type) === 'summary')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(base + suffix);
    names.add(base);
  }
  return names;
}

const rules = parse(fs.readFileSync(rulesFile, 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };
const dashboard = JSON.parse(fs.readFileSync(dashboardFile, 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

describe('the alert rules and the dashboard', () => {
  it('load in promtool check rules', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', rulesFile]);
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('alert on error rate, p99 latency, handler restarts and memory, reload failures, queues and the job store', () => {
    const exprs = rules.groups.flatMap((g) => g.rules.map((r) => r.expr)).join('\n');
    for (const read of ['outcome="SERVER_ERROR"', 'histogram_quantile(0.99', 'handler_restarts_total'])
      expect(exprs).toContain(read);
    for (const read of ['gateway_reload_failures_total', 'query_queued', 'query_jobs{state="queued"}'])
      expect(exprs).toContain(read);
    for (const read of ['query_job_store_seconds_bucket', 'handler_process_resident_bytes'])
      expect(exprs).toContain(read);
  });

  it('read only metrics the server exposes', async () => {
    const exposed = await exposedNames();
    const read = [
      ...rules.groups.flatMap((g) => g.rules.map((r) => [r.alert, r.expr] as const)),
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => [p.title, t.expr] as const)),
    ].flatMap(([where, expr]) => metricNames(expr).map((name) => `${where}: ${name}`));
    expect(read.length).toBeGreaterThan(30);
    expect(read.filter((entry) => !exposed.has(entry.split(': ')[1]))).toEqual([]);
  });

  it('finds the metric names of an expression', () => {
    expect(
      metricNames('sum by (route, le) (rate(a_bucket{job=~"$job",x="y"}[$__rate_interval])) / on(x) b_total > 0.5'),
    ).toEqual(['a_bucket', 'b_total']);
  });
});

/** A free port of 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a real Prometheus scraping the server', () => {
  const workspace = makeWorkspace({ 'specs/shop.yaml': shopSpec });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-prometheus-'));
  let app: FastifyInstance;
  let prometheus: ReturnType<typeof spawn>;
  let api: string;

  beforeAll(async () => {
    app = await startServer(workspace);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const target = `127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const config = {
      global: { scrape_interval: '1s', scrape_timeout: '1s' },
      scrape_configs: [
        { job_name: 'adaptive-gateway', metrics_path: metricsPath, static_configs: [{ targets: [target] }] },
      ],
    };
    fs.writeFileSync(path.join(dataDir, 'prometheus.yml'), JSON.stringify(config));
    const port = await freePort();
    api = `http://127.0.0.1:${port}/api/v1`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${path.join(dataDir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(dataDir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: 'ignore' },
    );
  });
  afterAll(async () => {
    prometheus?.kill();
    await app?.close();
    removeWorkspace(workspace);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Asks Prometheus until `query` returns `expected` (scrapes happen every second). */
  async function queryUntil(query: string, expected: number): Promise<number | undefined> {
    let value: number | undefined;
    for (let attempt = 0; attempt < 120 && value !== expected; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const answer = await fetch(`${api}/query?query=${encodeURIComponent(query)}`).catch(() => undefined);
      const body = (await answer?.json().catch(() => undefined)) as
        { data?: { result: { value: [number, string] }[] } } | undefined;
      const result = body?.data?.result?.[0];
      value = result ? Number(result.value[1]) : undefined;
    }
    return value;
  }

  it('sees the requests sent, by route template and status', async () => {
    const base = `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    for (let i = 0; i < 7; i++) await fetch(`${base}/api/adaptive/shop/items/item-${i}`);
    for (let i = 0; i < 4; i++) await fetch(`${base}/api/adaptive/shop/nowhere-${i}`);
    const ok = `http_server_requests_seconds_count{route="${shopItemRoute}",status="200",method="GET"}`;
    expect(await queryUntil(ok, 7)).toBe(7);
    const notFound = `sum(http_server_requests_seconds_count{route="UNKNOWN",status="404"})`;
    expect(await queryUntil(notFound, 4)).toBe(4);
    const up = await queryUntil('up{job="adaptive-gateway"}', 1);
    expect(up).toBe(1);
  }, 90_000);
});

describe('the deploy manifests', () => {
  const load = (file: string) => parse(fs.readFileSync(path.join(import.meta.dirname, 'kubernetes', file), 'utf8'));
  const deployment = load('deployment.yaml');
  const template = deployment.spec.template;
  const container = template.spec.containers[0];
  const metricsPort = Number(container.env.find((v: { name: string }) => v.name === 'METRICS_PORT').value);

  it('expose METRICS_PORT to annotations, the Service and the ServiceMonitor alike', () => {
    expect(container.ports).toContainEqual({ name: 'metrics', containerPort: metricsPort });
    expect(template.metadata.annotations).toMatchObject({ 'prometheus.io/port': String(metricsPort) });
    expect(load('service.yaml').spec.ports).toContainEqual({
      name: 'metrics',
      port: metricsPort,
      targetPort: 'metrics',
    });
    expect(load('servicemonitor.yaml').spec.endpoints[0]).toMatchObject({ port: 'metrics', path: '/metrics' });
  });

  it('METRICS_PORT serves /metrics without credentials while the API asks for them', async () => {
    const workspace = makeWorkspace({ users: '' });
    const port = await freePort();
    const app = await startServer(workspace, {
      AUTH_ENABLED: 'true',
      AUTH_USERS_FILE: path.join(workspace, 'users'),
      METRICS_PORT: String(port),
    });
    try {
      const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^# TYPE http_server_requests_seconds histogram$/m);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
      expect((await app.inject({ url: metricsPath })).statusCode).toBe(401);
    } finally {
      await app.close();
      removeWorkspace(workspace);
    }
  });
});
