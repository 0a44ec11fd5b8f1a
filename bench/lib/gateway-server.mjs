// Child process: the built gateway (dist/) on a loopback port. Configuration comes from the
// environment exactly as for `adaptive-gateway serve`; the port is reported to the parent over IPC
// once the workspace has loaded. BENCH_SPEC_PATHS (files, separated by the path delimiter) serves them
// as `adaptive-gateway serve <files>` does: mock mode, at their own paths, without the query service.
import path from 'node:path';
import { buildServer } from '../../server/dist/src/main/app.js';
import { loadConfig } from '../../server/dist/src/core/config.js';
import { defaultSpecLimits } from '../../server/dist/src/core/settings.js';

// Under callgrind on a busy machine a spec's load may take longer than its bound (20 s): the bench measures
// requests, not loads, so the bound is lifted rather than measuring a table of 404s.
defaultSpecLimits.timeoutMs = 600_000;

const specPaths = process.env.BENCH_SPEC_PATHS?.split(path.delimiter);
const app = await buildServer(loadConfig(process.env, { specPaths }));
await app.listen({ port: 0, host: '127.0.0.1' });
await app.gateway.start();
process.send({ port: app.server.address().port });
// The parent asks for the process's CPU time around each measurement (CPU per request).
process.on('message', (message) => message === 'cpu' && process.send({ cpu: process.cpuUsage() }));
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
