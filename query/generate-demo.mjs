#!/usr/bin/env node
// Generates the example workspace's demo data: a shop (DuckDB file: customers, orders), a lake
// folder (Parquet products, CSV reviews) and a stream (NDJSON click events). The data is random but
// seeded, so running this again gives the same files. Usage: node query/generate-demo.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const here = path.dirname(fileURLToPath(import.meta.url));
const shopFile = path.join(here, 'data', 'shop.duckdb');
const lakeDir = path.join(here, 'lake');
const eventsFile = path.join(here, 'events', 'clicks.ndjson');

/** A small deterministic PRNG (mulberry32), so the demo data is the same on every run. */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(20240601);
const pick = (items) => items[Math.floor(rand() * items.length)];
const sql = (text) => `'${String(text).replace(/'/g, "''")}'`;

const regions = {
  EU: ['Germany', 'France', 'Spain', 'Netherlands'],
  NA: ['United States', 'Canada'],
  APAC: ['Japan', 'Australia', 'Singapore'],
  LATAM: ['Brazil', 'Mexico'],
};
const firstNames = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Ken',
  'Barbara',
  'Dennis',
  'Frances',
  'Edsger',
  'Radia',
  'Tim',
];
const lastNames = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Thompson',
  'Liskov',
  'Ritchie',
  'Allen',
  'Dijkstra',
  'Perlman',
  'Berners-Lee',
];
const categories = { books: [8, 40], games: [15, 70], electronics: [25, 400], garden: [5, 120], kitchen: [6, 150] };

const customers = Array.from({ length: 120 }, (_, i) => {
  const region = pick(Object.keys(regions));
  return {
    id: i + 1,
    name: `${pick(firstNames)} ${pick(lastNames)}`,
    region,
    country: pick(regions[region]),
    signup_date: new Date(Date.UTC(2023, Math.floor(rand() * 12), 1 + Math.floor(rand() * 28)))
      .toISOString()
      .slice(0, 10),
  };
});
const products = Array.from({ length: 40 }, (_, i) => {
  const category = pick(Object.keys(categories));
  const [low, high] = categories[category];
  return {
    product_id: `P${String(i + 1).padStart(3, '0')}`,
    name: `${category[0].toUpperCase()}${category.slice(1)} item ${i + 1}`,
    category,
    price: Math.round((low + rand() * (high - low)) * 100) / 100,
  };
});
const orders = Array.from({ length: 1500 }, (_, i) => {
  const product = pick(products);
  const quantity = 1 + Math.floor(rand() * 4);
  const at = new Date(Date.UTC(2024, 0, 1) + Math.floor(rand() * 180 * 86_400_000));
  return {
    id: i + 1,
    customer_id: 1 + Math.floor(rand() * customers.length),
    product_id: product.product_id,
    quantity,
    amount: (Math.round(product.price * quantity * 100) / 100).toFixed(2),
    status: pick(['paid', 'paid', 'paid', 'shipped', 'refunded']),
    ordered_at: at.toISOString().replace('T', ' ').slice(0, 19),
  };
});
const clicks = Array.from({ length: 2500 }, () => {
  const at = new Date(Date.UTC(2024, 0, 1) + Math.floor(rand() * 180 * 86_400_000));
  const product = pick(products);
  return {
    ts: at.toISOString(),
    customer_id: 1 + Math.floor(rand() * customers.length),
    product_id: product.product_id,
    page: `/products/${product.product_id}`,
    action: pick(['view', 'view', 'view', 'add_to_cart', 'checkout']),
  };
}).sort((a, b) => a.ts.localeCompare(b.ts));

fs.mkdirSync(path.dirname(shopFile), { recursive: true });
fs.mkdirSync(lakeDir, { recursive: true });
fs.mkdirSync(path.dirname(eventsFile), { recursive: true });
for (const file of [shopFile, `${shopFile}.wal`]) fs.rmSync(file, { force: true });

const instance = await DuckDBInstance.create(':memory:');
const db = await instance.connect();
// A small block size keeps the committed database file small.
await db.run(`ATTACH ${sql(shopFile)} AS shop (BLOCK_SIZE 16384)`);
await db.run(
  'CREATE TABLE shop.customers (id INTEGER PRIMARY KEY, name VARCHAR, region VARCHAR, country VARCHAR, ' +
    'signup_date DATE)',
);
await db.run(
  `INSERT INTO shop.customers VALUES ` +
    customers
      .map((c) => `(${c.id}, ${sql(c.name)}, ${sql(c.region)}, ${sql(c.country)}, ${sql(c.signup_date)})`)
      .join(', '),
);
await db.run(
  'CREATE TABLE shop.orders (id INTEGER PRIMARY KEY, customer_id INTEGER, product_id VARCHAR, quantity INTEGER, ' +
    'amount DECIMAL(10,2), status VARCHAR, ordered_at TIMESTAMP)',
);
await db.run(
  `INSERT INTO shop.orders VALUES ` +
    orders
      .map(
        (o) =>
          `(${o.id}, ${o.customer_id}, ${sql(o.product_id)}, ${o.quantity}, ${o.amount}, ` +
          `${sql(o.status)}, ${sql(o.ordered_at)})`,
      )
      .join(', '),
);
await db.run('DETACH shop');
await db.run(
  `COPY (SELECT * FROM (VALUES ` +
    (products
      .map((p) => `(${sql(p.product_id)}, ${sql(p.name)}, ${sql(p.category)}, ${p.price}::DECIMAL(10,2))`)
      .join(', ') +
      `) ` +
      `AS t(product_id, name, category, price)) TO ${sql(path.join(lakeDir, 'products.parquet'))} (FORMAT parquet)`),
);
db.closeSync();
instance.closeSync();

const reviews = products.flatMap((p) =>
  Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({
    product_id: p.product_id,
    rating: 1 + Math.floor(rand() * 5),
  })),
);
fs.writeFileSync(
  path.join(lakeDir, 'reviews.csv'),
  `product_id,rating\n${reviews.map((r) => `${r.product_id},${r.rating}`).join('\n')}\n`,
);
fs.writeFileSync(eventsFile, clicks.map((c) => JSON.stringify(c)).join('\n') + '\n');

const size = (file) => fs.statSync(file).size;
console.log(
  `shop.duckdb ${size(shopFile)} B, products.parquet ${size(path.join(lakeDir, 'products.parquet'))} B, ` +
    `reviews.csv ${size(path.join(lakeDir, 'reviews.csv'))} B, clicks.ndjson ${size(eventsFile)} B`,
);
