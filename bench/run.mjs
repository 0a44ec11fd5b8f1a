// `npm run bench`: runs every benchmark and prints its numbers and ratios (never asserts).
// In-process benchmarks are modules exporting `run(settings)`; benchmarks other areas own are
// standalone scripts run as child processes at the end, each skipped when its file does not exist.
// Settings: BENCH_CONNECTIONS (50), BENCH_DURATION (10 s per run), BENCH_WARMUP (3 s), BENCH_ONLY
// (a module or script name to run alone).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.dirname(fileURLToPath(import.meta.url));

/** In-process benchmark modules, in order. */
const modules = ['gateway.mjs', 'mock-dynamic.mjs', 'mock-modes.mjs', 'handlers.mjs', 'health.mjs'];

/** Standalone benchmark scripts of other areas, run when present. */
function scripts() {
  const present = fs.readdirSync(benchDir);
  const queries = present.filter((name) => /^query-.*\.mjs$/.test(name)).sort();
  return [
    'instructions.mjs',
    'handler-reload.mjs',
    'handler-isolation.mjs',
    'large-workspace.mjs',
    ...queries,
    'result-size.mjs',
    'short-lane.mjs',
    'mock-startup.mjs',
    'auth-bench.mjs',
    'login-burst.mjs',
  ].filter((name) => present.includes(name));
}

const settings = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  durationSec: Number(process.env.BENCH_DURATION ?? 10),
  warmupSec: Number(process.env.BENCH_WARMUP ?? 3),
};
const only = process.env.BENCH_ONLY;
const selected = (name) => !only || name.startsWith(only);

function runScript(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(benchDir, name)], { stdio: 'inherit', env: process.env });
    child.once('error', (error) => resolve(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => resolve(code === 0 ? 'ok' : `exit ${signal ?? code}`));
  });
}

const outcomes = [];
for (const name of modules.filter(selected)) {
  console.log(`\n=== ${name}`);
  try {
    const bench = await import(path.join(benchDir, name));
    await bench.run(settings);
    outcomes.push([name, 'ok']);
  } catch (error) {
    console.error(`${name} failed: ${error.stack ?? error}`);
    outcomes.push([name, `failed: ${error.message}`]);
  }
}
for (const name of scripts().filter(selected)) {
  console.log(`\n=== ${name} (child process)`);
  outcomes.push([name, await runScript(name)]);
}
console.log(`\nbenchmarks: ${outcomes.map(([name, outcome]) => `${name} ${outcome}`).join(', ')}`);
process.exitCode = outcomes.every(([, outcome]) => outcome === 'ok') ? 0 : 1;
