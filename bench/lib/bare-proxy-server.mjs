// Child process: the proxy baseline, a bare Fastify server with one route that forwards to
// BENCH_UPSTREAM (a base URL) through an undici Agent with kept-alive connections, reads the answer
// whole and relays its status, content type and body: the work of a proxy, without validation.
import Fastify from 'fastify';
import { Agent, request } from 'undici';

const { BENCH_PATH, BENCH_UPSTREAM } = process.env;
const agent = new Agent();
const app = Fastify({ logger: false });
app.get(BENCH_PATH, async (_request, reply) => {
  const upstream = await request(BENCH_UPSTREAM + BENCH_PATH, { dispatcher: agent });
  const body = Buffer.from(await upstream.body.arrayBuffer());
  reply.code(upstream.statusCode).type(upstream.headers['content-type']).send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ port: app.server.address().port });
// The parent asks for the process's CPU time around each measurement (CPU per request).
process.on('message', (message) => message === 'cpu' && process.send({ cpu: process.cpuUsage() }));
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
