import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'server/dist/src/main/cli.js');
// The example workspace: the gateway's part, and query/ for the query console's demo sources.
const exampleParts = ['specs', 'handlers', 'health.yaml', 'query'];

/** A TCP port nobody listens on now (the test that needs it opens it later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Copies the example workspace to a temporary folder and starts the built server on it with
 * `serve --workbench` on a free port. The tests read the URL it prints (with the token) and the
 * workspace folder from the environment. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!fs.existsSync(cli) || !fs.existsSync(path.join(root, 'dist/renderer/index.html'))) {
    throw new Error('Build first: npm run build (npm run test:e2e does it)');
  }
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-e2e-'));
  for (const part of exampleParts) {
    const source = path.join(root, part);
    if (fs.existsSync(source)) fs.cpSync(source, path.join(workspace, part), { recursive: true });
  }
  // A health component for e2e/health.spec.ts: an HTTP service on a port the test opens and closes.
  const partnerPort = await freePort();
  fs.appendFileSync(
    path.join(workspace, 'health.yaml'),
    `\ncomponents:\n  e2epartner:\n    components:\n      api: {http: {url: ` +
      `"http://127.0.0.1:${partnerPort}/health"}, timeout_ms: 1000}\n`,
  );
  process.env.E2E_PARTNER_PORT = String(partnerPort);
  // Handlers import 'adaptive-workbench/handler': the server maps it to its own SDK, from any folder.
  const server = spawn(
    process.execPath,
    [cli, 'serve', '--workbench', '--port', '0', '--host', '127.0.0.1', '--workspace', workspace],
    {
      env: { ...process.env, AUTH_ENABLED: 'false', HOT_RELOAD: 'true', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logFile = path.join(root, 'test-results', 'e2e-server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  server.stdout.pipe(log);
  server.stderr.pipe(log);

  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`The server printed no workbench URL within 60 s:\n${output}`)),
      60_000,
    );
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Workbench: (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${code}:\n${output}`));
    });
  });
  process.env.WORKBENCH_URL = url;
  process.env.WORKBENCH_WORKSPACE = workspace;

  return async () => {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    log.end();
    fs.rmSync(workspace, { recursive: true, force: true });
  };
}
