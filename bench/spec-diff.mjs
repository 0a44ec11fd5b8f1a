// Breaking-change comparison (issue 34): time to compare two versions of the corpus's largest real specs,
// unchanged (the whole walk, nothing found) and with one field removed from a schema many operations use. Printed
// against the time to parse the same document (JSON.parse / the gateway's YAML reader) in the same run, as the
// comparison runs after every load of a changed spec; and the longest event-loop stall, in the slices the server
// falls back to, and with the comparison in the server's worker (the documents posted as the JSON text the load
// worker gives).
// Run: node bench/spec-diff.mjs   (BENCH_RUNS to change the runs per figure, default 5; medians printed)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
(await import('tsx/esm/api')).register();
const { diffSpecs, diffSpecsInSlices } = await import(path.join(root, 'server/src/gateway/diff/spec-diff.ts'));
const { parseSpecText } = await import(path.join(root, 'server/src/gateway/spec/spec-source.ts'));
const { defaultSpecLimits } = await import(path.join(root, 'server/src/core/settings.ts'));
const { DiffPool } = await import(path.join(root, 'server/src/gateway/diff/diff-pool.ts'));
const pool = new DiffPool();

const corpus = '/work/shared/conformance/openapi-corpus';
const specs = [
  'realworld/webex/public-spec/webex-contact-center.json',
  'realworld/plaid/2020-09-14.yml',
  'realworld/pagerduty/reference/REST/openapiv3.json',
  'pathological/synthetic/many-paths-20k.json',
];
const runs = Number(process.env.BENCH_RUNS ?? 5);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timed(work) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    result = work();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { ms: median(times), result };
}

/** The component schema referenced most often, with one of its properties removed in `document`. */
function removeSharedField(text, document) {
  const counts = new Map();
  for (const match of text.matchAll(/#\/components\/schemas\/([\w.-]+)/g))
    counts.set(match[1], (counts.get(match[1]) ?? 0) + 1);
  const schemas = document.components?.schemas ?? {};
  const [name] =
    [...counts].sort((a, b) => b[1] - a[1]).find(([n]) => Object.keys(schemas[n]?.properties ?? {}).length) ?? [];
  if (!name) return 'none';
  const field = Object.keys(schemas[name].properties)[0];
  delete schemas[name].properties[field];
  return `${name}.${field}`;
}

/** The longest time the event loop did not turn while `work` (a promise) ran, as the server would see it. */
async function longestStall(work) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await work();
  clearInterval(timer);
  return Math.max(longest, performance.now() - last);
}

for (const spec of specs) {
  const file = path.join(corpus, spec);
  if (!fs.existsSync(file)) continue;
  const text = fs.readFileSync(file, 'utf8');
  const parse = () => parseSpecText(text, spec, defaultSpecLimits);
  const parsed = timed(parse);
  const old = parsed.result;
  const copy = parse();
  const unchanged = timed(() => diffSpecs(old, copy));
  const edited = parse();
  const removed = removeSharedField(text, edited);
  const changed = timed(() => diffSpecs(old, edited));
  const breaking = changed.result.filter((c) => c.verdict === 'breaking').length;
  const stall = await longestStall(() => diffSpecsInSlices(old, edited));
  const [oldJson, newJson] = [JSON.stringify(old), JSON.stringify(edited)];
  await pool.diff(oldJson, oldJson); // the worker started and warm, as after the server's first comparison
  const workerStall = await longestStall(() => pool.diff(oldJson, newJson));
  const ratio = (ms) => `${(ms / parsed.ms).toFixed(2)}x parse`;
  console.log(
    `${spec} (${(text.length / 1e6).toFixed(1)} MB, ${Object.keys(old.paths ?? {}).length} paths): ` +
      `parse ${parsed.ms.toFixed(0)} ms; diff unchanged ${unchanged.ms.toFixed(0)} ms (${ratio(unchanged.ms)}); ` +
      `diff with ${removed} removed ${changed.ms.toFixed(0)} ms (${ratio(changed.ms)}), ` +
      `${changed.result.length} changes, ${breaking} breaking; ` +
      `longest event-loop stall: in slices ${stall.toFixed(0)} ms, in the worker ${workerStall.toFixed(0)} ms`,
  );
}
pool.close();
