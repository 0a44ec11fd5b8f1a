// Mock benchmarks (issues 20, 33), in one run with the same load: a dynamic answer (`?__dynamic=true`: a value
// generated and checked against the schema per request) and an answer chosen by a rule of the spec's mock table
// (`library-api.mock.yaml`, a path parameter rule) against bare Fastify answering the same body (targets 0.5x and
// 0.8x), and, when PRISM_CLI names the `prism` binary (installed outside the repository, never a dependency),
// against `prism mock` answering the same requests (`__dynamic=true` is Prism's query switch too; Prism has no
// rules, so its answer of the same example stands for the rule-matched one). Prints ratios; asserts nothing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { comparePairs } from './lib/load.mjs';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv } from './lib/workspace.mjs';
import { specWorkspace } from './gateway.mjs';

const mount = '/api/adaptive/library-api';
export const dynamicPath = '/books?__dynamic=true';
export const rulePath = '/books/1';
// The rule's `equals: 1` is YAML's number against the path's text `1`, as a user would write it.
export const mockTable =
  'routes:\n  GET /books/{bookId}:\n    rules:\n      - {in: path, key: bookId, equals: 1, response: 200}\n';
const libDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'lib');

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** `prism mock` of the workspace's spec; resolves once it answers. Prism serves the spec's paths at its root. */
async function startPrism(cli, specFile) {
  const port = await freePort();
  const child = spawn(cli, ['mock', '-h', '127.0.0.1', '-p', String(port), specFile], { stdio: 'ignore' });
  const origin = `http://127.0.0.1:${port}`;
  for (let waited = 0; waited < 60_000; waited += 250) {
    if (child.exitCode !== null) throw new Error(`prism exited with code ${child.exitCode}`);
    const ok = await fetch(origin + rulePath).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return { origin, stop: async () => child.kill('SIGTERM') };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGTERM');
  throw new Error('prism did not answer within 60 s');
}

/** The gateway's answer of `url`, checked to be a 200 (and chosen by `rule` when given). */
async function probe(url, rule) {
  const response = await fetch(url);
  const body = await response.text();
  const chosenBy = response.headers.get('x-adaptive-mock-rule');
  if (response.status !== 200 || (rule !== undefined && chosenBy !== rule))
    throw new Error(`GET ${url}: ${response.status}, chosen by ${chosenBy} (expected ${rule ?? 'any'}): ${body}`);
  return { body, contentType: response.headers.get('content-type') };
}

/** Runs the benchmark with the given load settings; returns its ratios. */
export async function run({ connections = 50, durationSec = 10, warmupSec = 3, rounds = 3 } = {}) {
  const workspace = specWorkspace();
  const servers = [];
  const start = async (script, env) => {
    const server = await startServer(path.join(libDir, script), env);
    servers.push(server);
    return server;
  };
  try {
    // Written before the gateway starts: the bench's gateway does not watch the workspace.
    fs.writeFileSync(workspace.file('specs', 'library-api.mock.yaml'), mockTable);
    const gateway = await start('gateway-server.mjs', gatewayEnv(workspace.dir));
    const bareOf = async (route, answer) =>
      start('bare-fastify-server.mjs', {
        BENCH_PATH: route.split('?')[0],
        BENCH_BODY: answer.body,
        BENCH_CONTENT_TYPE: answer.contentType,
      });
    const bareDynamic = await bareOf(dynamicPath, await probe(gateway.origin + mount + dynamicPath));
    const bareRule = await bareOf(rulePath, await probe(gateway.origin + mount + rulePath, 'rule 1'));
    const dynamic = { label: 'gateway, dynamic', server: gateway, url: gateway.origin + mount + dynamicPath };
    const ruled = { label: 'gateway, rule-matched', server: gateway, url: gateway.origin + mount + rulePath };
    const pairs = [
      {
        subject: dynamic,
        baseline: { label: 'bare Fastify, same body', server: bareDynamic, url: bareDynamic.origin + dynamicPath },
        target: 0.5,
      },
      {
        subject: ruled,
        baseline: { label: 'bare Fastify, its body', server: bareRule, url: bareRule.origin + rulePath },
        target: 0.8,
      },
    ];
    const cli = process.env.PRISM_CLI;
    if (cli) {
      const prism = await startPrism(cli, workspace.file('specs', 'library-api.openapi.yaml'));
      servers.push(prism);
      pairs.push(
        { subject: dynamic, baseline: { label: 'prism, dynamic', url: prism.origin + dynamicPath } },
        { subject: ruled, baseline: { label: 'prism, same example', url: prism.origin + rulePath } },
      );
    } else console.log('prism comparison: skipped (set PRISM_CLI to the prism binary of @stoplight/prism-cli 5.14)');
    console.log(
      `mock dynamic and rules: ${connections} connections, ${durationSec} s per run, ${warmupSec} s warm-up each, ` +
        `${rounds} alternating rounds`,
    );
    return await comparePairs(pairs, { connections, durationSec, warmupSec, rounds });
  } finally {
    for (const server of servers.reverse()) await server.stop();
    workspace.remove();
  }
}
