// Spec lint (issue 34): time to lint one changed spec with the built linter (dist/), as a save in the workbench
// does: the lint worker started and its ruleset (spectral:oas) loaded first, then each round lints a new version of
// the spec (the generated spec's revision changes; the corpus spec gets a new comment line). Prints the median and
// the range of the rounds. Two specs: a realistic one of the OpenAPI corpus (Twilio's Accounts API, 63 KB) and a
// generated one of BENCH_PATHS paths (the large-workspace generator's). Timing on a loaded machine is noisy: compare
// medians of runs on a quiet one.
// Then the large workspace (BENCH_SPECS specs, 200 by default) served by the built gateway with lint off (`serve`)
// and on (`serve --workbench`, where lint runs), alternating BENCH_WORKSPACE_ROUNDS times: readiness each way (lint
// runs after the load, so the target is no change), and with lint on, the time until every spec is linted (a
// refresh answers once lint has settled). BENCH_SPECS=0 leaves the workspace out.
// Run: npm run build:server && node bench/lint.mjs   (BENCH_ROUNDS, BENCH_PATHS; LINT_CORPUS_SPEC names another
// corpus file; the corpus is ../shared/conformance/openapi-corpus, CORPUS_DIR to place it elsewhere)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv } from './lib/workspace.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const gatewayScript = path.join(root, 'bench/lib/gateway-server.mjs');
(await import('tsx/esm/api')).register();
const { generatedSpec, writeGeneratedSpecs } = await import(
  path.join(root, 'server/src/test-support/generated-specs.ts')
);
const { LintPool } = await import(path.join(root, 'server/dist/src/gateway/lint/lint-pool.js'));

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const pathCount = Number(process.env.BENCH_PATHS ?? 50);
const corpusDir = path.resolve(root, process.env.CORPUS_DIR ?? '../shared/conformance/openapi-corpus');
const corpusSpec = process.env.LINT_CORPUS_SPEC ?? 'realworld/twilio/spec/yaml/twilio_accounts_v1.yaml';
const specCount = Number(process.env.BENCH_SPECS ?? 200);
const workspaceRounds = Number(process.env.BENCH_WORKSPACE_ROUNDS ?? 3);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

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

/**
 * Starts the gateway on `dir` with lint off and on, alternating, and prints the median readiness of each and, with
 * lint on, the median time from the start until every spec is linted.
 */
async function workspaceReadiness(dir) {
  const ready = { off: [], on: [] };
  const allLinted = [];
  for (let round = 0; round < workspaceRounds; round++) {
    for (const lint of ['off', 'on']) {
      const started = performance.now();
      const server = await startServer(gatewayScript, { ...gatewayEnv(dir), WORKBENCH: String(lint === 'on') });
      ready[lint].push(performance.now() - started);
      if (lint === 'on') {
        const refresh = await fetch(`${server.origin}/api/adaptive/actuator/refresh`, { method: 'POST' });
        const linted = new Set((await refresh.json()).lint.map((finding) => finding.file));
        allLinted.push(performance.now() - started);
        if (round === 0) console.log(`  lint findings in ${linted.size} of ${specCount} specs`);
      }
      await server.stop();
    }
  }
  const readiness = `lint off ${seconds(median(ready.off))}, on ${seconds(median(ready.on))}`;
  console.log(`  readiness, median of ${workspaceRounds}: ${readiness}`);
  console.log(`  with lint on, every spec linted ${seconds(median(allLinted))} after the start`);
}

if (specCount > 0) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lint-workspace-'));
  try {
    fs.mkdirSync(path.join(dir, 'handlers'));
    writeGeneratedSpecs(path.join(dir, 'specs'), specCount, pathCount);
    console.log(`large workspace, ${specCount} specs of ${pathCount} paths:`);
    await workspaceReadiness(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
