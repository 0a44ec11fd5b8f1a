#!/usr/bin/env node
// SPARQL benchmark (issue 8). Run after `npm run build`:
//   node bench/query-sparql.mjs        (CUSTOMERS=20000 ORDERS=500000 RUNS=15 by default)
// Builds a DuckDB database file (customers, orders) as a source, the ontology and R2RML mapping of
// the example workspace's shape over it, and measures in the same run:
// 1. translation time per query (parse + unfold + SQL generation, median of many runs);
// 2. each SPARQL query end to end (through the federated engine) against the hand-written SQL that
//    answers it (same engine, same data): both medians and their ratio (target: within 1.3x).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (module) => import(path.join(root, 'server/dist/src', module));
const { readConfigFile } = await dist('core/config-file.js');
const { querySetupOf } = await dist('query/sources.js');
const { QueryService } = await dist('query/query-service.js');
const { SparqlService } = await dist('query/sparql/sparql-service.js');

const customers = Number(process.env.CUSTOMERS ?? 20_000);
const orders = Number(process.env.ORDERS ?? 500_000);
const runs = Number(process.env.RUNS ?? 15);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-sparql-bench-'));

const instance = await DuckDBInstance.create(path.join(dir, 'shop.duckdb'));
const db = await instance.connect();
await db.run(
  `CREATE TABLE customers AS SELECT i AS id, 'Customer ' || i AS name, ['EU', 'NA', 'APAC', 'LATAM'][1 + i % 4] ` +
    `AS region FROM range(1, ${customers + 1}) t(i)`,
);
await db.run(
  `CREATE TABLE orders AS SELECT i AS id, 1 + (i * 7919) % ${customers} AS customer_id, CAST(1 + (i * 31) % 500 ` +
    (`AS DECIMAL(10,2)) AS amount, ['paid', 'shipped', 'refunded'][1 + i % 3] AS status FROM range(1, ` +
      `${orders + 1}) t(i)`),
);
db.closeSync();
instance.closeSync();

fs.writeFileSync(
  path.join(dir, 'sources.yaml'),
  'engine: duckdb\nlimits:\n  max_rows: 100000\nsources:\n  - name: shop\n    type: relational\n    ' +
    'description: bench\n    connector: duckdb\n    path: shop.duckdb\n',
);
fs.writeFileSync(
  path.join(dir, 'ontology.ttl'),
  '@prefix ex: <http://example.com/shop#> . @prefix owl: <http://www.w3.org/2002/07/owl#> .\nex:placed ' +
    'owl:inverseOf ex:placedBy .\n',
);
fs.writeFileSync(
  path.join(dir, 'mapping.ttl'),
  `@prefix rr: <http://www.w3.org/ns/r2rml#> . @prefix ex: <http://example.com/shop#> . @prefix aw: ` +
    `<urn:adaptive-workbench:r2rml#> .
<#Customers> rr:logicalTable [ rr:tableName "shop.customers" ; aw:uniqueKey "id" ] ;
  rr:subjectMap [ rr:template "http://example.com/shop/customer/{id}" ; rr:class ex:Customer ] ;
  rr:predicateObjectMap [ rr:predicate ex:name ; rr:objectMap [ rr:column "name" ] ] ;
  rr:predicateObjectMap [ rr:predicate ex:region ; rr:objectMap [ rr:column "region" ] ] .
<#Orders> rr:logicalTable [ rr:tableName "shop.orders" ; aw:uniqueKey "id" ] ;
  rr:subjectMap [ rr:template "http://example.com/shop/order/{id}" ; rr:class ex:Order ] ;
  rr:predicateObjectMap [ rr:predicate ex:placedBy ; rr:objectMap [ rr:template ` +
    `"http://example.com/shop/customer/{customer_id}" ] ] ;
  rr:predicateObjectMap [ rr:predicate ex:amount ; rr:objectMap [ rr:column "amount" ] ] ;
  rr:predicateObjectMap [ rr:predicate ex:status ; rr:objectMap [ rr:column "status" ] ] .
`,
);

const setup = querySetupOf(readConfigFile(path.join(dir, 'sources.yaml')));
const queries = await QueryService.create(setup, path.join(dir, 'jobs'), { error: () => {} });
const sparql = SparqlService.fromFolder(queries, dir);
const prefix = 'PREFIX ex: <http://example.com/shop#>\n';

const cases = [
  {
    name: 'type + properties + FILTER + LIMIT (the service document example)',
    sparql:
      `${prefix}SELECT ?c ?name WHERE { ?c a ex:Customer ; ex:name ?name ; ex:region ?r . FILTER(?r = ` +
      `"EU") } LIMIT 10`,
    sql: `SELECT 'http://example.com/shop/customer/' || id AS c, name FROM shop.customers WHERE region = 'EU' LIMIT 10`,
  },
  {
    name: 'all EU customers with name (no LIMIT)',
    sparql: `${prefix}SELECT ?c ?name WHERE { ?c a ex:Customer ; ex:name ?name ; ex:region "EU" }`,
    sql: `SELECT 'http://example.com/shop/customer/' || id AS c, name FROM shop.customers WHERE region = 'EU'`,
  },
  {
    name: 'join orders to customers, SUM per region',
    sparql:
      `${prefix}SELECT ?r (SUM(?a) AS ?total) WHERE { ?o ex:placedBy ?c ; ex:amount ?a . ?c ex:region ?r ` +
      `} GROUP BY ?r`,
    sql:
      'SELECT c.region, sum(o.amount) AS total FROM shop.orders o JOIN shop.customers c ON o.customer_id = ' +
      'c.id GROUP BY c.region',
  },
  {
    name: 'inverse property, FILTER on a number, ORDER BY + LIMIT',
    sparql:
      `${prefix}SELECT ?c ?o ?a WHERE { ?c ex:placed ?o . ?o ex:amount ?a FILTER(?a > 450) } ORDER BY ` +
      `DESC(?a) ?o LIMIT 100`,
    sql:
      `SELECT 'http://example.com/shop/customer/' || customer_id AS c, 'http://example.com/shop/order/' || ` +
      `id AS o, amount AS a FROM shop.orders WHERE amount > 450 ORDER BY amount DESC, o LIMIT 100`,
  },
];

console.log(`SPARQL benchmark: ${customers} customers, ${orders} orders (DuckDB file source), median of ${runs} runs`);
for (const c of cases) {
  const parsed = sparql.parse(c.sparql);
  await sparql.translate(parsed);
  const translateTimes = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    await sparql.translate(sparql.parse(c.sparql));
    translateTimes.push(performance.now() - start);
  }
  let sparqlRows = 0;
  let sqlRows = 0;
  const sparqlTimes = [];
  const sqlTimes = [];
  await sparql.run(c.sparql);
  await queries.sql(c.sql);
  // Interleaved in pairs, each side first in every other pair, so both see the same machine state; the
  // ratio is the median of the pairs' ratios, which a slow spell of the machine moves least.
  const timeSparql = async () => {
    const start = performance.now();
    sparqlRows = (await sparql.run(c.sparql)).rows.length;
    sparqlTimes.push(performance.now() - start);
  };
  const timeSql = async () => {
    const start = performance.now();
    sqlRows = (await queries.sql(c.sql)).row_count;
    sqlTimes.push(performance.now() - start);
  };
  for (let i = 0; i < runs; i++) {
    for (const time of i % 2 === 0 ? [timeSparql, timeSql] : [timeSql, timeSparql]) await time();
  }
  const s = median(sparqlTimes);
  const q = median(sqlTimes);
  const ratio = median(sparqlTimes.map((t, i) => t / sqlTimes[i]));
  console.log(`\n${c.name}`);
  console.log(`  translation (parse + translate, incl. column types): median ${median(translateTimes).toFixed(2)} ms`);
  console.log(
    `  SPARQL ${s.toFixed(1)} ms (${sparqlRows} rows) vs SQL ${q.toFixed(1)} ms (${sqlRows} rows): ratio ` +
      `${ratio.toFixed(2)}x (median of ${runs} paired runs)`,
  );
  console.log(
    `  runs: SPARQL ${sparqlTimes.map((t) => t.toFixed(0)).join(', ')} | SQL ` +
      `${sqlTimes.map((t) => t.toFixed(0)).join(', ')}`,
  );
}
await queries.close();
if (!process.env.KEEP) fs.rmSync(dir, { recursive: true, force: true });
