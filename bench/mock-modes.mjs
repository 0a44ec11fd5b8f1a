// Mocking modes (issue 20): a stateful GET against bare Fastify answering the same JSON, and a GET through the
// validating proxy against bare Fastify proxies through undici to the same upstream
// (bench/lib/bare-proxy-server.mjs: the same header forwarding and Agent settings, no contract checks;
// one calling undici.request(), one the gateway's own exchange through undici's dispatch interface),
// in one run with the same load. Prints ratios; asserts nothing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparePairs } from './lib/load.mjs';
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
    const gateway = await start('gateway-server.mjs', gatewayEnv(workspace.dir));
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
    return await comparePairs(
      [
        {
          subject: { label: 'stateful GET', server: gateway, url: statefulUrl },
          baseline: { label: 'bare Fastify', server: bare, url: `${bare.origin}/pets/1` },
          target: 0.5,
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
