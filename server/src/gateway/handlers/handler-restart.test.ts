import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../main/app.js';
import { loadConfig } from '../../core/config.js';
import { makeWorkspace, removeWorkspace } from '../../test-support/workspace.js';

const sdk = `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n`;
const timeoutMs = 3000;
const connections = 100;

type Answer = { status: number; body: Record<string, unknown>; ms: number };

describe('a module restart seen from outside (real HTTP)', () => {
  let workspace: string;
  let marker: string;
  let app: FastifyInstance;
  let base: string;

  const request = async (url: string, method = 'GET'): Promise<Answer> => {
    const started = performance.now();
    const response = await fetch(`${base}${url}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
    const text = await response.text();
    return { status: response.status, body: text === '' ? {} : JSON.parse(text), ms: performance.now() - started };
  };

  /** Starts the stuck call and resolves with its answer: 504 at the deadline, then the module is killed 500 ms on. */
  const stuck = async (url: string): Promise<void> => {
    const answer = await request(url);
    expect(answer.status).toBe(504);
  };

  beforeAll(async () => {
    workspace = makeWorkspace({
      'handlers/spin_handler.ts':
        `${sdk}router.get('/spin', () => { while (true) {} });\nrouter.get('/ok', () => ({ ok: true }));\n` +
        `router.post('/write', async () => { await new Promise((r) => setTimeout(r, 50)); ` +
        `return { written: true }; });\n`,
      'handlers/other_handler.ts': `${sdk}router.get('/ping', () => ({ pong: true }));\n`,
    });
    marker = path.join(workspace, 'broken-marker');
    // Loads until its /spin route has left the marker; from then on, every restart fails to load.
    fs.writeFileSync(
      path.join(workspace, 'handlers/fragile_handler.ts'),
      `import fs from 'node:fs';\n${sdk}const marker = ${JSON.stringify(marker)};\n` +
        `if (fs.existsSync(marker)) throw new Error('cannot load now');\n` +
        `router.get('/spin', () => { fs.writeFileSync(marker, ''); while (true) {} });\n` +
        `router.get('/ok', () => ({ ok: true }));\n`,
    );
    const config = loadConfig(
      { HOT_RELOAD: 'false', HANDLER_TIMEOUT_MS: String(timeoutMs), HANDLER_LOAD_TIMEOUT_MS: '5000' },
      { workspace },
    );
    app = await buildServer(config, { logger: pino({ level: 'silent' }) });
    await app.ready();
    expect((await app.gateway.start()).errors).toEqual([]);
    base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/api/adaptive`;
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  it(
    `fails no request of ${connections} connections while the module restarts after a stuck call, and another ` +
      `module's route serves throughout`,
    async () => {
      await stuck('/spin/spin');
      // From the stuck call's 504: the module is still blocked for the 500 ms grace, then killed and restarted.
      const restartsBefore = app.gateway.faults.list().filter((f) => f.file === 'spin_handler.ts').length;
      const failures: string[] = [];
      const served = { spin: 0, other: 0 };
      let stop = false;
      const worker = async (index: number): Promise<void> => {
        const url = index % 4 === 0 ? '/other/ping' : '/spin/ok';
        while (!stop) {
          const answer = await request(url);
          if (answer.status !== 200) failures.push(`${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
          else served[url === '/other/ping' ? 'other' : 'spin']++;
        }
      };
      const workers = Array.from({ length: connections }, (_, index) => worker(index));
      // Until the restart is recorded, and a while past it so that requests meet the new process.
      while (app.gateway.faults.list().filter((f) => f.file === 'spin_handler.ts').length === restartsBefore)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      stop = true;
      await Promise.all(workers);
      expect(failures).toEqual([]);
      expect(served.spin).toBeGreaterThan(connections);
      expect(served.other).toBeGreaterThan(connections / 4);
    },
    30_000,
  );

  it('answers 503 to a POST in flight on the killed process, and retries a GET in flight there', async () => {
    await stuck('/spin/spin');
    // Sent in the grace after the stuck call's 504: both are in flight on the process that gets killed.
    const [post, get] = await Promise.all([request('/spin/write', 'POST'), request('/spin/ok')]);
    expect(post.status).toBe(503);
    expect(post.body).toMatchObject({ code: 'HANDLER_RESTARTING' });
    expect(post.body.detail).toMatch(/spin_handler\.ts is restarting \(GET \/spin\/spin did not answer/);
    expect(get).toMatchObject({ status: 200, body: { ok: true } });
    expect((await request('/spin/write', 'POST')).body).toEqual({ written: true });
  }, 30_000);

  it('answers its load error promptly to calls waiting for a module that can no longer load', async () => {
    await stuck('/fragile/spin');
    // In flight on the blocked process when it is killed (within 500 ms): it waits, and the load fails.
    const waiting = await request('/fragile/ok');
    expect(waiting.status).toBe(503);
    expect(waiting.body.detail).toMatch(/fragile_handler\.ts is restarting \(restart failed: .*cannot load now/);
    // Answered when the load failed, not at its own deadline.
    expect(waiting.ms).toBeLessThan(timeoutMs - 1000);
    // While the module backs off, a new call is answered at once rather than held.
    const next = await request('/fragile/ok');
    expect(next.status).toBe(503);
    expect(next.ms).toBeLessThan(500);
    expect((await request('/other/ping')).body).toEqual({ pong: true });
  }, 30_000);
});
