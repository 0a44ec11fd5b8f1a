// Child process: the baseline, a bare Fastify server with one route answering the same JSON body
// with the same content type: serialised once (as the gateway caches its example payloads), or, with
// BENCH_SERIALIZE=1, serialised per request from the parsed body (as a handler's result is).
import Fastify from 'fastify';

const { BENCH_PATH, BENCH_BODY, BENCH_CONTENT_TYPE, BENCH_SERIALIZE } = process.env;
const app = Fastify({ logger: false });
if (BENCH_SERIALIZE === '1') {
  const value = JSON.parse(BENCH_BODY);
  app.get(BENCH_PATH, (_request, reply) => reply.type(BENCH_CONTENT_TYPE).send(JSON.stringify(value)));
} else {
  app.get(BENCH_PATH, (_request, reply) => reply.type(BENCH_CONTENT_TYPE).send(BENCH_BODY));
}
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ port: app.server.address().port });
// The parent asks for the process's CPU time around each measurement (CPU per request).
process.on('message', (message) => message === 'cpu' && process.send({ cpu: process.cpuUsage() }));
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
