// Child process: the built gateway (dist/) on a loopback port. Configuration comes from the
// environment exactly as for `adaptive-gateway serve`; the port is reported to the parent over IPC
// once the workspace has loaded.
import { buildServer } from '../../server/dist/src/main/app.js';
import { loadConfig } from '../../server/dist/src/core/config.js';

const app = await buildServer(loadConfig(process.env));
await app.listen({ port: 0, host: '127.0.0.1' });
await app.gateway.start();
process.send({ port: app.server.address().port });
// The parent asks for the process's CPU time around each measurement (CPU per request).
process.on('message', (message) => message === 'cpu' && process.send({ cpu: process.cpuUsage() }));
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
