// Mocking modes (issue 20): a stateful GET and a GET answered by a mock table rule (issue 33) against bare
// Fastify answering the same JSON, and a GET
// through the validating proxy against bare Fastify proxies through undici to the same upstream
// (bench/lib/bare-proxy-server.mjs: the same header forwarding and Agent settings, no contract checks;
// one calling undici.request(), one the gateway's own exchange through undici's dispatch interface),
// in one run with the same load. Prints ratios; asserts nothing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCount, measureAlternately } from './lib/load.mjs';
import { startServer } from './lib/servers.mjs';
import { gatewayEnv, scratchWorkspace } from './lib/workspace.mjs';

const libDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib');
/** The upstream's list of pets. */
export const pets = [
  { id: 1, name: 'Rex', tag: 'dog' },
  { id: 2, name: 'Tom', tag: 'cat' },
];
const pet = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' } },
};
const answer = (schema, example) => ({
  200: { description: 'ok', content: { 'application/json': { schema, ...(example ? { example } : {}) } } },
});

/** A pet store spec: stateful, or proxied to `upstream`. */
export const petstore = (extension) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'pets', version: '1' },
    ...extension,
    paths: {
      '/pets': { get: { responses: answer({ type: 'array', items: pet }, pets) } },
      '/pets/{petId}': {
        get: {
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: answer(pet),
        },
      },
    },
  });

const row = (label, m) =>
  `  ${label.padEnd(30)} ${formatCount(m.requestsPerSec).padStart(9)} req/s   p99 ` +
  (`${String(m.p99Ms).padStart(4)} ms   server CPU ${m.cpuUsPerRequest.toFixed(1).padStart(5)} µs/req   non-2xx ` +
    `${m.non2xx}   errors ${m.errors}`);

/** Measures each pair of targets alternately (warm-up, then `rounds` rounds) and prints each pair's ratio. */
async function compare(pairs, { connections, durationSec, warmupSec, rounds }) {
  // A subject compared with two baselines is measured once a round.
  const targets = [...new Set(pairs.flatMap((pair) => [pair.subject, pair.baseline]))];
  for (const target of targets) target.runs = [];
  await measureAlternately(targets, { connections, durationSec, warmupSec, rounds }, (label, result) =>
    console.log(row(label, result)),
  );
  // Each round's ratio is taken between runs measured side by side; the median is what drift touches least.
  const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const perRound = (subject, baseline, field) =>
    subject.runs.map((run, round) => run[field] / baseline.runs[round][field]);
  return pairs.map(({ subject, baseline, target }) => {
    const ratios = perRound(subject, baseline, 'requestsPerSec');
    const ratio = median(ratios);
    const cpu = median(perRound(baseline, subject, 'cpuUsPerRequest'));
    console.log(
      `  ${subject.label} / ${baseline.label}: ${ratio.toFixed(2)}x requests/s, median of ${ratios.length} rounds ` +
        `(${ratios.map((r) => r.toFixed(2)).join(', ')}; target ${target}x or better), ${cpu.toFixed(2)}x by server ` +
        'CPU per request',
    );
    return { label: `${subject.label} / ${baseline.label}`, ratio };
  });
}

/** Runs the comparison; `settings` as for every benchmark of bench/run.mjs. */
export async function run({ connections = 50, durationSec = 10, warmupSec = 3, rounds = 3 } = {}) {
  const servers = [];
  const workspace = scratchWorkspace();
  try {
    const start = async (script, env) => {
      const server = await startServer(path.join(libDir, script), env);
      servers.push(server);
      return server;
    };
    const upstream = await start('bare-fastify-server.mjs', {
      BENCH_PATH: '/v1/pets',
      BENCH_BODY: JSON.stringify(pets),
      BENCH_CONTENT_TYPE: 'application/json; charset=utf-8',
    });
    fs.writeFileSync(workspace.file('specs', 'stateful.json'), petstore({ 'x-adaptive-state': true }));
    fs.writeFileSync(
      workspace.file('specs', 'proxied.json'),
      petstore({ 'x-adaptive-proxy': `${upstream.origin}/v1` }),
    );
    // A route of the mock table whose rule matches every measured request (issue 33).
    fs.writeFileSync(workspace.file('specs', 'tabled.json'), petstore({}));
    fs.writeFileSync(
      workspace.file('specs', 'tabled.mock.yaml'),
      'routes:\n  GET /pets:\n    rules:\n      - {in: query, key: tag, equals: dog, response: 200}\n',
    );
    const gateway = await start('gateway-server.mjs', gatewayEnv(workspace.dir));
    const ruleUrl = `${gateway.origin}/api/adaptive/tabled/pets?tag=dog`;
    const ruleProbe = await fetch(ruleUrl);
    const ruleBody = await ruleProbe.text();
    if (ruleProbe.headers.get('x-adaptive-mock-rule') !== 'rule 1')
      throw new Error(`GET ${ruleUrl} was not answered by its rule: ${ruleProbe.status} ${ruleBody}`);
    const bareRule = await start('bare-fastify-server.mjs', {
      BENCH_PATH: '/pets',
      BENCH_BODY: ruleBody,
      BENCH_CONTENT_TYPE: ruleProbe.headers.get('content-type'),
    });
    const statefulUrl = `${gateway.origin}/api/adaptive/stateful/pets/1`;
    const probe = await fetch(statefulUrl);
    const body = await probe.text();
    if (probe.status !== 200) throw new Error(`GET ${statefulUrl} answered ${probe.status}: ${body}`);
    const bare = await start('bare-fastify-server.mjs', {
      BENCH_PATH: '/pets/1',
      BENCH_BODY: body,
      BENCH_CONTENT_TYPE: probe.headers.get('content-type'),
    });
    const bareProxy = (client) =>
      start('bare-proxy-server.mjs', {
        BENCH_PATH: '/pets',
        BENCH_UPSTREAM: `${upstream.origin}/v1`,
        BENCH_CLIENT: client,
      });
    const [requestProxy, dispatchProxy] = [await bareProxy('request'), await bareProxy('dispatch')];
    const proxied = { label: 'proxied GET', server: gateway, url: `${gateway.origin}/api/adaptive/proxied/pets` };
    console.log(
      `mock modes: ${connections} connections, ${durationSec} s per run, ${warmupSec} s warm-up each, ${rounds} ` +
        `alternating rounds`,
    );
    return await compare(
      [
        {
          subject: { label: 'stateful GET', server: gateway, url: statefulUrl },
          baseline: { label: 'bare Fastify', server: bare, url: `${bare.origin}/pets/1` },
          target: 0.5,
        },
        {
          subject: { label: 'rule-matched GET', server: gateway, url: ruleUrl },
          baseline: { label: 'bare Fastify, same body', server: bareRule, url: `${bareRule.origin}/pets?tag=dog` },
          target: 0.8,
        },
        {
          subject: proxied,
          baseline: { label: 'bare proxy, undici.request()', server: requestProxy, url: `${requestProxy.origin}/pets` },
          target: 0.8,
        },
        {
          subject: proxied,
          baseline: {
            label: 'bare proxy, undici dispatch',
            server: dispatchProxy,
            url: `${dispatchProxy.origin}/pets`,
          },
          target: 0.8,
        },
      ],
      { connections, durationSec, warmupSec, rounds },
    );
  } finally {
    for (const server of servers.reverse()) await server.stop();
    workspace.remove();
  }
}
