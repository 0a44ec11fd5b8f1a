// One-file mock mode's start-up (issue 37): `adaptive-gateway serve <spec>` from a cold process to its first
// answer, and its resident memory once idle, against `prism mock` and `mockoon-cli start` on the same spec,
// alternating A B C A B C ... so that a drifting machine affects all three alike. The peers are installed
// outside the repository, never dependencies: PRISM_CLI and MOCKOON_CLI name their binaries; a peer that is
// not given is left out. Settings: STARTUP_RUNS (5), STARTUP_SPEC (the example library spec). Prints
// medians and ratios; asserts nothing. Build the server first (`npm run build:server`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const spec = process.env.STARTUP_SPEC ?? path.join(root, 'specs/library-api.openapi.yaml');
const runs = Number(process.env.STARTUP_RUNS ?? 5);
/** The spec's first path: every tool serves it (at the servers URL's path, or at the root). */
const probePaths = ['/api/adaptive/library-api/books', '/books'];

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const tools = [
  {
    name: 'adaptive-gateway',
    command: process.execPath,
    args: (port) => [path.join(root, 'server/bin/adaptive-gateway.cjs'), 'serve', '--port', String(port), spec],
  },
  process.env.PRISM_CLI && {
    name: 'prism 5.14',
    command: process.env.PRISM_CLI,
    args: (port) => ['mock', '-h', '127.0.0.1', '-p', String(port), spec],
  },
  process.env.MOCKOON_CLI && {
    name: 'mockoon-cli 9',
    command: process.env.MOCKOON_CLI,
    args: (port) => ['start', '--data', spec, '--port', String(port), '--disable-log-to-file'],
  },
].filter(Boolean);

/** Resident memory of a process and every descendant, in MB, from /proc. */
function treeRssMb(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while the table was read
    }
  }
  let kb = 0;
  for (const queue = [pid]; queue.length;) {
    const next = queue.pop();
    try {
      kb += Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${next}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
    queue.push(...(children.get(next) ?? []));
  }
  return kb / 1024;
}

/** Starts a tool, waits for its first 200 on the spec's path, then for it to idle; stops it. */
async function measure(tool) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(tool.command, tool.args(port), { stdio: 'ignore', detached: true });
  let firstAnswerMs;
  while (firstAnswerMs === undefined) {
    if (child.exitCode !== null) throw new Error(`${tool.name} exited with code ${child.exitCode}`);
    if (performance.now() - started > 60_000) break;
    for (const probe of probePaths) {
      const ok = await fetch(`http://127.0.0.1:${port}${probe}`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) firstAnswerMs = performance.now() - started;
    }
    if (firstAnswerMs === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const idleRssMb = treeRssMb(child.pid);
  process.kill(-child.pid, 'SIGKILL');
  await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  if (firstAnswerMs === undefined) throw new Error(`${tool.name} did not answer within 60 s`);
  return { firstAnswerMs, idleRssMb };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = new Map(tools.map((tool) => [tool.name, []]));
await measure(tools[0]); // warm the file cache for the first tool as the others warm theirs in turn
for (let run = 0; run < runs; run++) for (const tool of tools) results.get(tool.name).push(await measure(tool));

console.log(`mock start-up, ${runs} alternating runs, spec ${path.relative(root, spec) || spec}`);
const ours = results.get(tools[0].name);
for (const [name, samples] of results) {
  const first = median(samples.map((s) => s.firstAnswerMs));
  const rss = median(samples.map((s) => s.idleRssMb));
  const ratio =
    name === tools[0].name
      ? ''
      : `  (adaptive-gateway / ${name}: start ${(median(ours.map((s) => s.firstAnswerMs)) / first).toFixed(2)}x, ` +
        `RSS ${(median(ours.map((s) => s.idleRssMb)) / rss).toFixed(2)}x)`;
  console.log(
    `  ${name.padEnd(17)} first answer ${first.toFixed(0).padStart(5)} ms, idle RSS ${rss.toFixed(0)} MB${ratio}`,
  );
}
