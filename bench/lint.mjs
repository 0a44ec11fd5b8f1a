// Spec lint (issue 34): time to lint one changed spec with the built linter (dist/), as a save in the workbench
// does: the lint worker started and its ruleset (spectral:oas) loaded first, then each round lints a new version of
// the spec (the generated spec's revision changes; the corpus spec gets a new comment line). Prints the median and
// the range of the rounds. Two specs: a realistic one of the OpenAPI corpus (Twilio's Accounts API, 63 KB) and a
// generated one of BENCH_PATHS paths (the large-workspace generator's). Timing on a loaded machine is noisy: compare
// medians of runs on a quiet one.
// Run: npm run build:server && node bench/lint.mjs   (BENCH_ROUNDS, BENCH_PATHS; LINT_CORPUS_SPEC names another
// corpus file; the corpus is ../shared/conformance/openapi-corpus, CORPUS_DIR to place it elsewhere)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
(await import('tsx/esm/api')).register();
const { generatedSpec } = await import(path.join(root, 'server/src/test-support/generated-specs.ts'));
const { LintPool } = await import(path.join(root, 'server/dist/src/gateway/lint/lint-pool.js'));

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const pathCount = Number(process.env.BENCH_PATHS ?? 50);
const corpusDir = path.resolve(root, process.env.CORPUS_DIR ?? '../shared/conformance/openapi-corpus');
const corpusSpec = process.env.LINT_CORPUS_SPEC ?? 'realworld/twilio/spec/yaml/twilio_accounts_v1.yaml';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Lints `rounds` versions of one spec (`versionOf(round)` its text) and prints the median time and the range. */
async function lintRounds(pool, label, file, specsDir, versionOf) {
  const times = [];
  for (let round = 1; round <= rounds; round++) {
    const start = performance.now();
    const findings = await pool.lint(file, specsDir, undefined, versionOf(round));
    times.push(performance.now() - start);
    if (round === 1) console.log(`${label}: ${findings.length} findings`);
  }
  const fmt = (ms) => `${Math.round(ms)} ms`;
  console.log(`  one changed spec, median of ${rounds}: ${fmt(median(times))}`);
  console.log(`  range ${fmt(Math.min(...times))} to ${fmt(Math.max(...times))}`);
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lint-'));
const pool = new LintPool();
try {
  const generated = path.join(scratch, 'generated.yaml');
  fs.writeFileSync(generated, generatedSpec(0, pathCount));
  const warm = performance.now();
  await pool.lint(generated, scratch);
  console.log(`worker start and ruleset load with the first lint: ${Math.round(performance.now() - warm)} ms`);
  await lintRounds(pool, `generated spec, ${pathCount} paths`, generated, scratch, (round) =>
    generatedSpec(0, pathCount, round),
  );
  const corpusFile = path.join(corpusDir, corpusSpec);
  if (!fs.existsSync(corpusFile)) console.log(`corpus spec ${corpusFile} not found: skipped`);
  else {
    const text = fs.readFileSync(corpusFile, 'utf8');
    const specsDir = path.join(corpusDir, ...corpusSpec.split('/').slice(0, 2));
    await lintRounds(pool, corpusSpec, corpusFile, specsDir, (round) => `${text}\n# revision ${round}\n`);
  }
} finally {
  pool.close();
  fs.rmSync(scratch, { recursive: true, force: true });
}
