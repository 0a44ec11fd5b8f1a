#!/usr/bin/env node
// Trino paging (issue 36): the built Trino engine (server/dist) against an in-process stand-in that plays the client
// protocol (QUEUED, then RUNNING pages with `nextUri`, then FINISHED), pages made on the fly and never stored.
// 1. Rows per second through `nextUri` paging: TRINO_BENCH_ROWS rows (default 1,000,000) in pages of 5,000
//    rows, into the engine's byte-bounded ResultRows; the peer is a bare loop in the same run that follows the
//    same pages with fetch + JSON.parse and keeps nothing (the protocol's floor), printed as a ratio.
// 2. Memory while streaming 1 GB of pages: a query whose pages add up to 1 GB, read under the byte limit
//    (limits.max_result_bytes, 32 MB by default): peak RSS of this process, bytes the stand-in sent, whether
//    the engine cancelled it (DELETE on the nextUri) once the limit was reached.
// Run: npm run build:server && node bench/trino-paging.mjs
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { queryModule } from './lib/query-dist.mjs';

const rowsPerPage = 5000;
const totalRows = Number(process.env.TRINO_BENCH_ROWS ?? 1_000_000);
const columns = [
  { name: 'id', type: 'bigint' },
  { name: 'region', type: 'varchar' },
  { name: 'amount', type: 'decimal(12,2)' },
  { name: 'ordered_at', type: 'timestamp(3)' },
];
/** One page's rows as JSON text, made once: only the ids differ between pages, and they do not matter here. */
const pageRows = JSON.stringify(
  Array.from({ length: rowsPerPage }, (_, i) => [i, `region-${i % 17}`, '1234.50', '2024-03-01 10:11:12.500']),
);
const pageBytes = Buffer.byteLength(pageRows);
const stats = { sent: 0, deletes: 0 };
const mb = (n) => `${(n / 1024 ** 2).toFixed(1)} MB`;
let pagesOfNext = 0;

const standIn = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const origin = `http://127.0.0.1:${standIn.address().port}`;
    if (request.method === 'DELETE') {
      stats.deletes++;
      response.writeHead(204).end();
      return;
    }
    const token = request.method === 'POST' ? 0 : Number(request.url.split('/').at(-1));
    const next =
      token < pagesOfNext ? `"nextUri":"${origin}/v1/statement/executing/q${pagesOfNext}/${token + 1}",` : '';
    const data = token === 0 ? '' : `"columns":${JSON.stringify(columns)},"data":${pageRows},`;
    const body = `{"id":"q${pagesOfNext}",${next}${data}"stats":{"state":"${next ? 'RUNNING' : 'FINISHED'}"}}`;
    stats.sent += body.length;
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});
await new Promise((resolve) => standIn.listen(0, '127.0.0.1', resolve));
const server = `http://127.0.0.1:${standIn.address().port}`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-trino-bench-'));
const file = path.join(dir, 'sources.yaml');
fs.writeFileSync(
  file,
  `engine: trino\ntrino: { server: "${server}" }\nsources:\n  - { name: shop, type: relational, connector: postgres, ` +
    `url: "postgres://x@127.0.0.1:1/shop", trino: { catalog: postgresql, schema: public } }\n`,
);
const { loadQuerySetup } = await queryModule('sources.js');
const { SourceCatalog } = await queryModule('source-catalog.js');
const { SqlParser } = await queryModule('engine/sql-parser.js');
const { TrinoEngine } = await queryModule('engine/trino-engine.js');
const setup = loadQuerySetup(file);
const catalog = new SourceCatalog(setup.sources);
const parser = await SqlParser.create();
const engine = new TrinoEngine(catalog, parser, setup.trino, setup.limits);

/** The peer: follows every nextUri with fetch and parses each page, keeping nothing. */
async function bareLoop() {
  let page = await (await fetch(`${server}/v1/statement`, { method: 'POST', body: 'SELECT 1' })).json();
  let rows = 0;
  while (page.nextUri) {
    page = await (await fetch(page.nextUri)).json();
    rows += page.data?.length ?? 0;
  }
  return rows;
}

async function timed(label, fn) {
  const started = performance.now();
  const rows = await fn();
  const seconds = (performance.now() - started) / 1000;
  console.log(`${label}: ${rows} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds)} rows/s`);
  return rows / seconds;
}

// 2. 1 GB of pages under the default byte limit, first, so the baseline is the process before any large result.
const sql = 'SELECT id, region, amount, ordered_at FROM shop.orders';
pagesOfNext = 2;
await engine.run(sql, { maxRows: rowsPerPage, timeoutMs: 60_000 }); // warm-up
pagesOfNext = Math.ceil(1024 ** 3 / pageBytes);
/** Reads the 1 GB query under `maxBytes`: the figures of one line. */
async function oneGigabyte(maxBytes) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  stats.sent = 0;
  stats.deletes = 0;
  const big = await engine.run(sql, { maxRows: 100_000_000, maxBytes, timeoutMs: 600_000 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  clearInterval(sampler);
  console.log(
    `1 GB query (${pagesOfNext} pages of ${mb(pageBytes)}), byte limit ${mb(maxBytes)}: ` +
      `${big.row_count} rows kept, truncated=${big.truncated}, stand-in sent ${mb(stats.sent)}, ` +
      `cancel DELETEs ${stats.deletes}; RSS before ${mb(before)}, peak ${mb(peak)} (+${mb(peak - before)})`,
  );
}
// The default limits.max_result_bytes, then the largest it may be set to.
await oneGigabyte(setup.limits.maxResultBytes);
await oneGigabyte(256 * 1024 ** 2);

pagesOfNext = Math.ceil(totalRows / rowsPerPage);
const limits = { maxRows: totalRows, maxBytes: 256 * 1024 ** 2, timeoutMs: 600_000 };
const peer = await timed('bare fetch + JSON.parse loop (peer)', bareLoop);
const ours = await timed(
  'Trino engine (ResultRows, 256 MB bound)',
  async () => (await engine.run(sql, limits)).row_count,
);
console.log(`ratio engine / peer: ${(ours / peer).toFixed(2)}`);

await engine.close();
await catalog.close();
parser.close();
standIn.close();
fs.rmSync(dir, { recursive: true, force: true });
