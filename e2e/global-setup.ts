import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'dist/server/src/cli.js');
// The gateway's part of the example workspace; query/ belongs to the query service's own tests.
const exampleParts = ['specs', 'handlers', 'health.yaml'];

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
  // Handlers import 'adaptive-workbench/handler': the server maps it to its own SDK, from any folder.
  const server = spawn(process.execPath, [cli, 'serve', '--workbench', '--port', '0', '--host', '127.0.0.1', '--workspace', workspace], {
    env: { ...process.env, AUTH_ENABLED: 'false', HOT_RELOAD: 'true', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logFile = path.join(root, 'test-results', 'e2e-server.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  server.stdout.pipe(log);
  server.stderr.pipe(log);

  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`The server printed no workbench URL within 60 s:\n${output}`)), 60_000);
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
