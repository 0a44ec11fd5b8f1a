import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyExampleWorkspace, freePort, startWorkbenchServer } from './server-process.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'server/bin/adaptive-gateway.cjs');

/**
 * Copies the example workspace to a temporary folder and starts the built server on it with
 * `serve --workbench` on a free port. The tests read the URL it prints (with the token) and the
 * workspace folder from the environment. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!fs.existsSync(cli) || !fs.existsSync(path.join(root, 'dist/renderer/index.html'))) {
    throw new Error('Build first: npm run build (npm run test:e2e does it)');
  }
  const workspace = copyExampleWorkspace('e2e');
  // A health component for e2e/health.spec.ts: an HTTP service on a port the test opens and closes.
  const partnerPort = await freePort();
  fs.appendFileSync(
    path.join(workspace, 'health.yaml'),
    `\ncomponents:\n  e2epartner:\n    components:\n      api: {http: {url: ` +
      `"http://127.0.0.1:${partnerPort}/health"}, timeout_ms: 1000}\n`,
  );
  process.env.E2E_PARTNER_PORT = String(partnerPort);
  const server = await startWorkbenchServer({
    workspace,
    logFile: path.join(root, 'test-results', 'e2e-server.log'),
  });
  process.env.WORKBENCH_URL = server.url;
  process.env.WORKBENCH_WORKSPACE = workspace;

  return async () => {
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  };
}
