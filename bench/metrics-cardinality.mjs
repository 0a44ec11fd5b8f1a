#!/usr/bin/env node
// Series count of the metrics after REQUESTS requests over PATHS distinct paths (issue 35): client input
// must not grow the metrics. Half the paths hit a generated route with a path parameter, half match no
// route; the series count must stay bounded by routes x methods x statuses, whatever PATHS is.
//   npm run build:server && node bench/metrics-cardinality.mjs   (REQUESTS=100000, PATHS=10000)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildServer } from '../server/dist/src/main/app.js';
import { loadConfig } from '../server/dist/src/core/config.js';
import { seriesCount } from '../server/dist/src/observability/metrics.js';
import { metricsPath } from '../server/dist/src/observability/observability.js';

const shopSpec = `openapi: 3.0.3
info: { title: shop, version: '1' }
servers: [{ url: /api/adaptive/shop }]
paths:
  /items/{itemId}:
    get:
      parameters: [{ name: itemId, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: one item, content: { application/json: { example: { id: x } } } } }
`;
const requests = Number(process.env.REQUESTS ?? 100_000);
const paths = Number(process.env.PATHS ?? 10_000);
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-cardinality-'));
fs.mkdirSync(path.join(workspace, 'specs'));
fs.writeFileSync(path.join(workspace, 'specs/shop.yaml'), shopSpec);
const config = loadConfig({ WORKSPACE: workspace, HOT_RELOAD: 'false', LOG_LEVEL: 'warn', QUERY_SOURCES: 'none.yaml' });
const app = await buildServer(config, { logger: pino({ level: 'warn' }) });
await app.ready();
await app.gateway.start();
await app.inject({ url: metricsPath });
const before = await seriesCount();
const started = performance.now();
for (let i = 0; i < requests; i++) {
  const n = i % paths;
  const url = n % 2 === 0 ? `/api/adaptive/shop/items/${n}` : `/api/adaptive/shop/no-such-${n}?x=${n}`;
  await app.inject({ url, method: n % 3 === 0 ? 'POST' : 'GET' });
}
const elapsed = performance.now() - started;
const after = await seriesCount();
const scrapeStarted = performance.now();
const scrape = await app.inject({ url: metricsPath });
const scrapeMs = performance.now() - scrapeStarted;
console.log(`${requests} requests over ${paths} distinct paths in ${(elapsed / 1000).toFixed(1)} s`);
console.log(`series: ${before} before, ${after} after (+${after - before}); metrics text ${scrape.body.length} bytes`);
console.log(`scrape time after the load: ${scrapeMs.toFixed(1)} ms`);
await app.close();
fs.rmSync(workspace, { recursive: true, force: true });
