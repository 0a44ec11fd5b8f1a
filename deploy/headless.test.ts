import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-headless-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Starts `serve` on a free port and resolves with the process and its base URL once it listens. */
function serve(command: string[], cwd: string, env: Record<string, string>): Promise<{ child: ChildProcess; base: string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [...command, 'serve', '--port', '0'], { cwd, env: { ...process.env, LOG_LEVEL: 'info', HOT_RELOAD: 'false', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start')), 60_000);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1], exit });
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

async function waitUntilReady(base: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const response = await fetch(`${base}/api/adaptive/actuator/health/readiness`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('never ready');
}

describe('graceful shutdown', () => {
  it('finishes requests in flight on SIGTERM and exits 0', async () => {
    const workspace = path.join(scratch, 'sigterm');
    fs.mkdirSync(path.join(workspace, 'handlers'), { recursive: true });
    fs.writeFileSync(
      path.join(workspace, 'handlers', 'slow_handler.ts'),
      `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\nrouter.get('/wait', async () => { await new Promise((r) => setTimeout(r, 1000)); return { done: true }; });\n`,
    );
    const { child, base, exit } = await serve(['--import', 'tsx', path.join(root, 'server/src/cli.ts')], root, { WORKSPACE: workspace });
    await waitUntilReady(base);
    const inFlight = Promise.all(Array.from({ length: 5 }, () => fetch(`${base}/api/adaptive/slow/wait`).then(async (r) => ({ status: r.status, body: await r.json() }))));
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    const answers = await inFlight;
    expect(answers).toEqual(Array(5).fill({ status: 200, body: { done: true } }));
    expect(await exit).toBe(0);
    await expect(fetch(`${base}/api/adaptive/`)).rejects.toThrow();
  });

  it('serves requests sent on idle keep-alive connections after SIGTERM, telling their clients to close', async () => {
    const workspace = path.join(scratch, 'keep-alive');
    fs.mkdirSync(workspace, { recursive: true });
    const { child, base, exit } = await serve(['--import', 'tsx', path.join(root, 'server/src/cli.ts')], root, { WORKSPACE: workspace, SHUTDOWN_DRAIN_MS: '3000' });
    await waitUntilReady(base);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const liveness = () =>
      new Promise<{ status: number; connection?: string; reused: boolean }>((resolve, reject) => {
        const request = http.get(`${base}/api/adaptive/actuator/health/liveness`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, reused: request.reusedSocket }));
        });
        request.on('error', reject);
      });
    try {
      await Promise.all(Array.from({ length: 4 }, liveness));
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const answers = await Promise.all(Array.from({ length: 4 }, liveness));
      expect(answers).toEqual(Array(4).fill({ status: 200, connection: 'close', reused: true }));
      expect(await exit).toBe(0);
    } finally {
      agent.destroy();
    }
  });
});

describe('headless install', () => {
  it('runs from the built server with production dependencies only, and answers /api/health', async () => {
    const app = path.join(scratch, 'install');
    fs.mkdirSync(app);
    for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(root, file), path.join(app, file));
    fs.cpSync(path.join(root, 'server', 'python'), path.join(app, 'server', 'python'), { recursive: true });
    fs.cpSync(path.join(root, 'specs'), path.join(app, 'specs'), { recursive: true });
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'server/tsconfig.build.json'), '--outDir', path.join(app, 'dist/server')], { stdio: 'pipe' });
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app, stdio: 'pipe', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    expect(fs.existsSync(path.join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(fs.existsSync(path.join(app, 'node_modules', 'tsx'))).toBe(false);
    const installBytes = Number(execFileSync('du', ['-sb', path.join(app, 'node_modules')]).toString().split('\t')[0]);
    const started = performance.now();
    const { child, base, exit } = await serve([path.join(app, 'dist/server/src/cli.js')], app, { WORKSPACE: app });
    try {
      await waitUntilReady(base);
      const coldStartMs = Math.round(performance.now() - started);
      console.log(`headless install: node_modules ${(installBytes / 1024 / 1024).toFixed(1)} MB; cold start to readiness UP ${coldStartMs} ms`);
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'UP', groups: ['api', 'liveness', 'readiness'] });
      expect((await fetch(`${base}/api/adaptive/library-api/books`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exit;
    }
  }, 300_000);
});
