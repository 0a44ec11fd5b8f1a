import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntilReady } from '../server/src/test-support/server-process.js';
import { replayDockerfile, type ReplayedStages } from './dockerfile-replay.js';

const root = path.resolve(import.meta.dirname, '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-headless-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Starts `command serve --port 0` and resolves with the process and its base URL once it listens. */
function serve(
  command: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; base: string; exit: Promise<number | null> }> {
  const [program, ...args] = command;
  const child = spawn(program, [...args, 'serve', '--port', '0'], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'info', HOT_RELOAD: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

describe('graceful shutdown', () => {
  it('finishes requests in flight on SIGTERM and exits 0', async () => {
    const workspace = path.join(scratch, 'sigterm');
    fs.mkdirSync(path.join(workspace, 'handlers'), { recursive: true });
    fs.writeFileSync(
      path.join(workspace, 'handlers', 'slow_handler.ts'),
      `import { Router } from 'adaptive-workbench/handler';\nexport const router = new ` +
        (`Router();\nrouter.get('/wait', async () => { await new Promise((r) => setTimeout(r, 1000)); return { ` +
          `done: true }; });\n`),
    );
    const { child, base, exit } = await serve(
      [process.execPath, '--import', 'tsx', path.join(root, 'server/src/main/cli.ts')],
      root,
      { WORKSPACE: workspace },
    );
    await waitUntilReady(base);
    const inFlight = Promise.all(
      Array.from({ length: 5 }, () =>
        fetch(`${base}/api/adaptive/slow/wait`).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    const answers = await inFlight;
    expect(answers).toEqual(Array(5).fill({ status: 200, body: { done: true } }));
    expect(await exit).toBe(0);
    await expect(fetch(`${base}/api/adaptive/`)).rejects.toThrow();
  }, 60_000);

  it('serves requests sent on idle keep-alive connections after SIGTERM, telling their clients to close', async () => {
    const workspace = path.join(scratch, 'keep-alive');
    fs.mkdirSync(workspace, { recursive: true });
    const { child, base, exit } = await serve(
      [process.execPath, '--import', 'tsx', path.join(root, 'server/src/main/cli.ts')],
      root,
      { WORKSPACE: workspace, SHUTDOWN_DRAIN_MS: '3000' },
    );
    await waitUntilReady(base);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const liveness = () =>
      new Promise<{ status: number; connection?: string; reused: boolean }>((resolve, reject) => {
        const request = http.get(`${base}/api/adaptive/actuator/health/liveness`, { agent }, (response) => {
          response.resume();
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              connection: response.headers.connection,
              reused: request.reusedSocket,
            }),
          );
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
  }, 60_000);
});

// The Dockerfile replayed without Docker (none here): its build stage packs the server package from
// exactly the files it copies, and its runtime stage installs that tarball into an empty folder the
// way a user does (`npm install ./adaptive-workbench-<version>.tgz`). One install serves both checks.
describe('the container recipe and the headless package', () => {
  let stages: ReplayedStages;
  let skipped: string[];
  beforeAll(() => {
    ({ stages, skipped } = replayDockerfile(path.join(root, 'deploy/Dockerfile'), root, path.join(scratch, 'docker')));
  }, 300_000);

  const inStage = (stage: string, target: string) => path.join(stages[stage].root, target);

  it('the build stage packs the server from the files it copies, with the server package dependencies only', () => {
    const app = inStage('build', stages.build.workdir);
    const tarballs = fs.readdirSync(app).filter((name) => name.endsWith('.tgz'));
    expect(tarballs).toEqual([
      `adaptive-workbench-${JSON.parse(fs.readFileSync(path.join(root, 'server/package.json'), 'utf8')).version}.tgz`,
    ]);
    for (const desktopOnly of ['electron', 'react', 'vite', 'monaco-editor', 'vitest'])
      expect(fs.existsSync(path.join(app, 'node_modules', desktopOnly))).toBe(false);
    expect(fs.existsSync(path.join(app, 'electron'))).toBe(false);
    // Only steps about the operating system are left to Docker.
    expect(skipped.every((command) => /^(if \[ "\$WITH_PYTHON"|mkdir -p \/data)/.test(command))).toBe(true);
  });

  it(
    'the runtime stage (npm install of the tarball into an empty folder) runs the server: npx ' +
      'adaptive-gateway, the entrypoint, readiness, health and a TypeScript handler',
    async () => {
      const app = inStage('runtime', stages.runtime.workdir);
      const modules = path.join(app, 'node_modules');
      expect(fs.readdirSync(modules)).not.toContain('typescript');
      const version = execFileSync('npx', ['--no', '--', 'adaptive-gateway', '--version'], {
        cwd: app,
        encoding: 'utf8',
      }).trim();
      expect(version).toBe('0.1.0');
      const installBytes = Number(execFileSync('du', ['-sb', modules]).toString().split('\t')[0]);
      // The image's paths, inside the replayed stage; no identity provider here, so no authentication.
      const env = stages.runtime.env;
      const mapped = Object.fromEntries(
        ['WORKSPACE', 'SPECS_DIR', 'HANDLERS_DIR', 'DATA_DIR'].map((name) => [name, inStage('runtime', env[name])]),
      );
      const started = performance.now();
      const { child, base, exit } = await serve([path.join(app, stages.runtime.entrypoint[0])], app, {
        ...env,
        ...mapped,
        HOST: '127.0.0.1',
        AUTH_ENABLED: 'false',
      });
      try {
        await waitUntilReady(base);
        const coldStartMs = Math.round(performance.now() - started);
        console.log(
          `headless package: node_modules ${(installBytes / 1024 / 1024).toFixed(1)} MB; cold start to readiness ` +
            `UP ${coldStartMs} ms`,
        );
        expect(stages.runtime.cmd).toEqual(['serve']);
        const health = await fetch(`${base}/api/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({ status: 'UP', groups: ['api', 'liveness', 'readiness'] });
        const created = await fetch(`${base}/api/adaptive/library-api/books`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Dune', author: 'Frank Herbert' }),
        });
        expect(created.status).toBe(201);
        expect((await fetch(`${base}/api/adaptive/swagger-ui/`)).status).toBe(200);
      } finally {
        child.kill('SIGTERM');
        await exit;
      }
    },
    120_000,
  );
});
