// Child process: the baseline, a bare Fastify server with one route answering the same JSON body
// (serialised once, as the gateway caches its example payloads) with the same content type.
import Fastify from 'fastify';

const { BENCH_PATH, BENCH_BODY, BENCH_CONTENT_TYPE } = process.env;
const app = Fastify({ logger: false });
app.get(BENCH_PATH, (_request, reply) => reply.type(BENCH_CONTENT_TYPE).send(BENCH_BODY));
await app.listen({ port: 0, host: '127.0.0.1' });
process.send({ port: app.server.address().port });
// The parent asks for the process's CPU time around each measurement (CPU per request).
process.on('message', (message) => message === 'cpu' && process.send({ cpu: process.cpuUsage() }));
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
