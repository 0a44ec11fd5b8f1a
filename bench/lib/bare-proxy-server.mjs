// Child process: the proxy baseline, a bare Fastify server with one route that forwards to
// BENCH_UPSTREAM (a base URL) through an undici Agent with kept-alive connections, and does what
// the gateway's proxy must do besides its contract checks: forwards the request's end-to-end headers
// with X-Forwarded-For, reads the answer whole, and relays its status, end-to-end headers and body.
// The Agent has the gateway's settings (BENCH_TIMEOUT_MS as its connect, headers and body timeouts;
// undici's defaults otherwise: one request at a time per connection, connections kept alive).
// BENCH_CLIENT says how it calls undici: `request` (undici.request(), reading the body stream whole:
// what a proxy written by hand does) or `dispatch` (the gateway's own exchange through undici's
// dispatch interface: the gateway's forwarding without its routing and contract checks).
import Fastify from 'fastify';
import { request } from 'undici';
import { exchange, upstreamConnections } from '../../server/dist/src/gateway/mock/upstream-exchange.js';

const { BENCH_PATH, BENCH_UPSTREAM, BENCH_TIMEOUT_MS = '10000', BENCH_CLIENT = 'request' } = process.env;
const timeout = Number(BENCH_TIMEOUT_MS);
// The gateway's own connections (an undici Agent with its timeouts): both clients go through the same Agent.
const upstream = await upstreamConnections(timeout);
const hopHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);
const endToEnd = (headers) => {
  const kept = {};
  for (const name in headers) if (!hopHeaders.has(name)) kept[name] = headers[name];
  return kept;
};

const target = new URL(BENCH_UPSTREAM + BENCH_PATH);
const limits = { origin: target.origin, timeoutMs: timeout, responseLimit: 8 * 1024 * 1024 };
const clients = {
  request: async (method, headers) => {
    const answer = await request(target, { method, headers, dispatcher: upstream.agent });
    return {
      status: answer.statusCode,
      headers: answer.headers,
      body: Buffer.from(await answer.body.arrayBuffer()),
    };
  },
  dispatch: (method, headers) =>
    exchange(upstream, { origin: target.origin, path: target.pathname, method, headers }, limits),
};
const forward = clients[BENCH_CLIENT];

const app = Fastify({ logger: false });
app.get(BENCH_PATH, async (req, reply) => {
  const headers = endToEnd(req.headers);
  headers['x-forwarded-for'] = req.ip;
  const answer = await forward(req.method, headers);
  reply.code(answer.status).headers(endToEnd(answer.headers)).send(answer.body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ port: app.server.address().port });
// The parent asks for the process's CPU time around each measurement (CPU per request).
process.on('message', (message) => message === 'cpu' && process.send({ cpu: process.cpuUsage() }));
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
