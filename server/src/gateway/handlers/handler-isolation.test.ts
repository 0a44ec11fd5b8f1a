import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../main/app.js';
import { loadConfig } from '../../core/config.js';
import { startServerProcess, waitUntilReady } from '../../test-support/server-process.js';
import { makeWorkspace, removeWorkspace, writeFile } from '../../test-support/workspace.js';

const sdk =
  `import { Router, HTTPException } from 'adaptive-workbench/handler';\nexport const router = new ` + `Router();\n`;
const timeoutMs = 3000;
const token = 'isolation-token-0123456789abcdef';

const spec = `openapi: 3.0.3
info: { title: pets, version: '1' }
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { example: [{ name: rex }] } }
`;

const files: Record<string, string> = {
  'specs/pets.openapi.yaml': spec,
  'handlers/other_handler.ts': `${sdk}router.get('/ping', () => ({ pong: true }));\n`,
  'handlers/spin_handler.ts':
    `${sdk}router.get('/spin', () => { while (true) {} });\nrouter.get('/ok', () => ` + `({ ok: true }));\n`,
  'handlers/third_handler.ts':
    `${sdk}let calls = 0;\nrouter.get('/', () => { calls++; if (calls === 3) { while ` +
    `(true) {} } return { calls }; });\n`,
  'handlers/never_handler.ts':
    `${sdk}let count = 0;\nlet aborted = 'no';\n` +
    (`router.get('/never', ({ signal }) => { signal.addEventListener('abort', () => { aborted = ` +
      `String((signal.reason as Error).message); }); return new Promise(() => {}); });\n`) +
    `router.get('/count', () => ({ count: ++count, aborted }));\n`,
  'handlers/faults_handler.ts':
    `${sdk}router.get('/throws', () => { throw new Error('boom'); });\n` +
    `router.get('/http', () => { throw new HTTPException(418, 'teapot'); });\n` +
    `router.get('/undefined', () => undefined);\n` +
    `router.get('/cycle', () => { const a: Record<string, unknown> = {}; a.self = a; return a; });\n` +
    `router.get('/bigint', () => ({ n: 10n }));\n` +
    (`router.get('/stray', () => { Promise.reject(new Error('nobody listens')); setTimeout(() => { throw new ` +
      `Error('from a timer'); }, 1); return { ok: true }; });\n`) +
    `router.post('/echo', ({ body }) => ({ body: Buffer.isBuffer(body) ? body.toString('utf8') : body }));\n`,
};

type Answer = { status: number; body: Record<string, unknown> };

describe('handler modules run isolated', () => {
  let workspace: string;
  let app: FastifyInstance;
  const logs: Array<Record<string, unknown>> = [];

  const get = async (url: string): Promise<Answer> => {
    const response = await app.inject({ method: 'GET', url: `/api/adaptive${url}` });
    return { status: response.statusCode, body: response.body === '' ? {} : response.json() };
  };

  /**
   * Starts `url` and, while it is still unanswered, checks every other kind of route answers. A fault
   * that ends at once (running out of memory) is checked while the module restarts instead.
   */
  const whileFaulting = async (url: string, { endsAtOnce = false } = {}): Promise<{ answer: Answer; ms: number }> => {
    const started = Date.now();
    let settled = false;
    const faulty = get(url).then((answer) => {
      settled = true;
      return { answer, ms: Date.now() - started };
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const others = await Promise.all([
      get('/other/ping'),
      get('/pets/pets'),
      get('/actuator/health/liveness'),
      get('/'),
    ]);
    expect(others.map((o) => o.status)).toEqual([200, 200, 200, 200]);
    expect(others[0].body).toEqual({ pong: true });
    if (!endsAtOnce) expect(settled).toBe(false);
    return faulty;
  };

  /** The Problems panel's entries for handler `file`, read over the workbench API. */
  const problemsOf = async (file: string): Promise<Array<{ message: string }>> => {
    const response = await app.inject({ url: '/api/workbench/diagnostics', headers: { 'x-workbench-token': token } });
    expect(response.statusCode).toBe(200);
    const { diagnostics } = response.json() as { diagnostics: Array<{ path: string; message: string }> };
    return diagnostics.filter((d) => d.path === `handlers/${file}`);
  };

  /** Polls Problems until it lists a fault of handler `file` (reported once the stuck module is stopped). */
  const untilProblem = async (file: string): Promise<{ message: string }> => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const [problem] = await problemsOf(file);
      if (problem) return problem;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no problem listed for ${file}`);
  };

  /** Polls `url` until it answers 200: a restarted module serves again. */
  const untilServing = async (url: string): Promise<Answer> => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const answer = await get(url);
      if (answer.status === 200) return answer;
      expect(answer.status).toBe(503);
      expect(answer.body.detail).toMatch(/is restarting/);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${url} never served again`);
  };

  beforeAll(async () => {
    workspace = makeWorkspace(files);
    const config = loadConfig(
      {
        HOT_RELOAD: 'false',
        HANDLER_TIMEOUT_MS: String(timeoutMs),
        HANDLER_LOAD_TIMEOUT_MS: '5000',
      },
      { workspace, workbench: true },
    );
    app = await buildServer(config, {
      logger: pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) }),
      workbenchToken: token,
    });
    await app.ready();
    const result = await app.gateway.start();
    expect(result.errors).toEqual([]);
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  it(
    'answers 504 at the deadline to a synchronous endless loop, keeps every other route serving, and restarts ' +
      'the module',
    async () => {
      const { answer, ms } = await whileFaulting('/spin/spin');
      expect(answer).toEqual({
        status: 504,
        body: { detail: `Handler did not answer within ${timeoutMs} ms`, code: 'HANDLER_TIMEOUT' },
      });
      expect(ms).toBeLessThan(timeoutMs + 1000);
      const problem = await untilProblem('spin_handler.ts');
      // In the workbench's diagnostics with its route, while the module is down.
      expect(problem.message).toMatch(/^GET \/spin\/spin: .*did not answer within 3000 ms and blocked the module/);
      expect(await untilServing('/spin/ok')).toEqual({ status: 200, body: { ok: true } });
      // Once the restarted module answered, the problem is past: Problems no longer lists it.
      expect(await problemsOf('spin_handler.ts')).toEqual([]);
      expect(app.gateway.faults.list().filter((f) => f.file === 'spin_handler.ts')).toEqual([]);
    },
  );

  it('cuts off a loop that starts only on the third request; the restarted module counts afresh', async () => {
    expect(await get('/third')).toEqual({ status: 200, body: { calls: 1 } });
    expect(await get('/third')).toEqual({ status: 200, body: { calls: 2 } });
    const { answer } = await whileFaulting('/third');
    expect(answer.status).toBe(504);
    expect(await untilServing('/third')).toEqual({ status: 200, body: { calls: 1 } });
  });

  it('answers 504 to a promise that never settles, aborts its signal, and keeps the module and its state', async () => {
    expect((await get('/never/count')).body).toEqual({ count: 1, aborted: 'no' });
    const { answer, ms } = await whileFaulting('/never/never');
    expect(answer).toEqual({
      status: 504,
      body: { detail: `Handler did not answer within ${timeoutMs} ms`, code: 'HANDLER_TIMEOUT' },
    });
    expect(ms).toBeLessThan(timeoutMs + 1000);
    expect((await get('/never/count')).body).toEqual({
      count: 2,
      aborted: `Handler did not answer within ${timeoutMs} ms`,
    });
  });

  it('answers thrown errors, undefined, cycles and BigInts as before, and logs what went wrong', async () => {
    const internal = { detail: 'Internal error', code: 'INTERNAL' };
    expect(await get('/faults/throws')).toEqual({ status: 500, body: internal });
    expect(await get('/faults/http')).toEqual({
      status: 418,
      body: { detail: 'teapot', code: 'HANDLER_HTTP_EXCEPTION' },
    });
    expect(await get('/faults/undefined')).toEqual({ status: 200, body: {} });
    expect(await get('/faults/cycle')).toEqual({ status: 500, body: internal });
    expect(await get('/faults/bigint')).toEqual({ status: 500, body: internal });
    const failures = logs.filter((l) => l.msg === 'handler failed' && l.handler === 'faults_handler.ts');
    expect(failures.map((l) => (l.err as { message: string }).message)).toEqual([
      'boom',
      expect.stringMatching(/circular/i),
      expect.stringMatching(/BigInt/),
    ]);
    expect(failures[0]).toMatchObject({ method: 'GET', path: '/faults/throws' });
  });

  it('logs a stray rejection and a throw from a timer, and the module keeps serving', async () => {
    expect(await get('/faults/stray')).toEqual({ status: 200, body: { ok: true } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const strays = logs
      .filter((l) => typeof l.msg === 'string' && l.msg.startsWith('handler error outside any request'))
      .map((l) => (l.err as { message: string }).message);
    expect(strays).toEqual(expect.arrayContaining(['nobody listens', 'from a timer']));
    expect(await get('/faults/undefined')).toEqual({ status: 200, body: {} });
  });

  it('hands a non-JSON body to the handler as a Buffer', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/adaptive/faults/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'plain text',
    });
    expect(response.json()).toEqual({ body: 'plain text' });
  });
});

describe('memory', () => {
  it('answers 503 to a module that runs out of memory, restarts it, and the server lives on', async () => {
    const workspace = makeWorkspace({
      'handlers/hog_handler.ts':
        `${sdk}const kept: unknown[] = [];\nrouter.get('/hog', () => { for (;;) ` +
        `kept.push(new Array(1_000_000).fill(kept.length)); });\nrouter.get('/ok', () => ({ ok: true }));\n`,
      'handlers/other_handler.ts': `${sdk}router.get('/ping', () => ({ pong: true }));\n`,
    });
    // A generous deadline: a process near its heap limit collects for a while before V8 gives up.
    const app = await buildServer(
      loadConfig(
        { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', HANDLER_TIMEOUT_MS: '60000', HANDLER_MEMORY_MB: '96' },
        { workspace },
      ),
      { logger: pino({ level: 'silent' }) },
    );
    try {
      await app.ready();
      await app.gateway.start();
      const hog = app.inject({ method: 'GET', url: '/api/adaptive/hog/hog' });
      expect((await app.inject({ method: 'GET', url: '/api/adaptive/other/ping' })).json()).toEqual({ pong: true });
      const answer = await hog;
      expect(answer.statusCode).toBe(503);
      expect(answer.json().detail).toMatch(
        /hog_handler\.ts is restarting \(ran out of memory \(HANDLER_MEMORY_MB=96\)\)/,
      );
      expect((await app.inject({ method: 'GET', url: '/api/adaptive/other/ping' })).json()).toEqual({ pong: true });
      let status = 0;
      for (let attempt = 0; attempt < 200 && status !== 200; attempt++) {
        const response = await app.inject({ method: 'GET', url: '/api/adaptive/hog/ok' });
        status = response.statusCode;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
      // The module answered again: its fault is past and no longer listed.
      expect(app.gateway.faults.list().filter((f) => f.file === 'hog_handler.ts')).toEqual([]);
    } finally {
      await app.close();
      removeWorkspace(workspace);
    }
  }, 120_000);
});

describe('large answers', () => {
  it('refuses an answer over the response limit with a 500 naming it, serialised off the gateway loop', async () => {
    const workspace = makeWorkspace({
      'handlers/big_handler.ts':
        `${sdk}router.get('/big', () => ({ data: 'x'.repeat(100 * 1024 * 1024) ` +
        `}));\nrouter.get('/fits', () => ({ data: 'y'.repeat(100_000) }));\n`,
      'handlers/other_handler.ts': `${sdk}router.get('/ping', () => ({ pong: true }));\n`,
    });
    const app = await buildServer(
      loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent', HANDLER_TIMEOUT_MS: '60000' }, { workspace }),
      { logger: pino({ level: 'silent' }) },
    );
    try {
      await app.ready();
      await app.gateway.start();
      let bigAnswered = false;
      const big = app.inject({ method: 'GET', url: '/api/adaptive/big/big' }).then((response) => {
        bigAnswered = true;
        return response;
      });
      const pings: number[] = [];
      while (!bigAnswered) {
        pings.push((await app.inject({ method: 'GET', url: '/api/adaptive/other/ping' })).statusCode);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const response = await big;
      expect(response.statusCode).toBe(500);
      expect(response.json().detail).toMatch(
        /^The handler answered 10485761\d bytes, more than HANDLER_RESPONSE_LIMIT \(8388608 bytes\)$/,
      );
      expect(pings.length).toBeGreaterThan(0);
      expect(pings.every((status) => status === 200)).toBe(true);
      const fits = await app.inject({ method: 'GET', url: '/api/adaptive/big/fits' });
      expect(fits.statusCode).toBe(200);
      expect(fits.json().data).toHaveLength(100_000);
    } finally {
      await app.close();
      removeWorkspace(workspace);
    }
  }, 60_000);
});

describe('loading handler modules is bounded', () => {
  let workspace: string;
  let app: FastifyInstance;
  const loop = `${sdk}router.get('/v', () => ({ v: 'looping' }));\nwhile (true) {}\n`;

  beforeAll(async () => {
    workspace = makeWorkspace({
      'handlers/loop_handler.ts': loop,
      'handlers/fine_handler.ts': `${sdk}router.get('/v', () => ({ v: 'fine' }));\n`,
    });
    const config = loadConfig(
      { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', HANDLER_LOAD_TIMEOUT_MS: '3000' },
      { workspace },
    );
    app = await buildServer(config, { logger: pino({ level: 'silent' }) });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  it('becomes ready with a module whose top level loops, reporting it as a load error', async () => {
    const result = await app.gateway.start();
    expect(result.errors).toEqual([
      {
        file: 'loop_handler.ts',
        message: expect.stringMatching(/^did not finish loading within 3000 ms \(HANDLER_LOAD_TIMEOUT_MS\)/),
      },
    ]);
    expect((await app.inject({ method: 'GET', url: '/api/adaptive/actuator/health/readiness' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/adaptive/fine/v' })).json()).toEqual({ v: 'fine' });
  });

  it('keeps the last good version serving when a saved edit loops at load', async () => {
    writeFile(workspace, 'handlers/loop_handler.ts', `${sdk}router.get('/v', () => ({ v: 'good' }));\n`);
    expect((await app.gateway.reload()).errors).toEqual([]);
    writeFile(workspace, 'handlers/loop_handler.ts', loop);
    const result = await app.gateway.reload();
    expect(result.errors.map((e) => e.file)).toEqual(['loop_handler.ts']);
    expect((await app.inject({ method: 'GET', url: '/api/adaptive/loop/v' })).json()).toEqual({ v: 'good' });
  });
});

describe('reloads under load', () => {
  // 100 reloads, each starting a process from the TypeScript sources; bench/handler-isolation.mjs makes 500
  // against the built server.
  it('reloads a module 100 times while other routes serve without a single failure', async () => {
    const reloads = 100;
    const workspace = makeWorkspace({
      'specs/pets.openapi.yaml': spec,
      'handlers/other_handler.ts': `${sdk}router.get('/ping', () => ({ pong: true }));\n`,
    });
    const config = loadConfig({ HOT_RELOAD: 'false' }, { workspace });
    const app = await buildServer(config, { logger: pino({ level: 'silent' }) });
    try {
      await app.ready();
      await app.gateway.start();
      let stop = false;
      const failures: string[] = [];
      let served = 0;
      const load = async () => {
        while (!stop) {
          for (const url of ['/api/adaptive/other/ping', '/api/adaptive/pets/pets']) {
            const response = await app.inject({ method: 'GET', url });
            served++;
            if (response.statusCode !== 200) failures.push(`${url}: ${response.statusCode}`);
          }
        }
      };
      const loaders = Array.from({ length: 4 }, load);
      for (let edit = 1; edit <= reloads; edit++) {
        writeFile(
          workspace,
          'handlers/edited_handler.ts',
          `${sdk}const data = new Array(1000).fill(${edit});\nrouter.get('/v', () => ({ v: ${edit}, n: ` +
            `data.length }));\n`,
        );
        const result = await app.gateway.reload();
        expect(result.errors).toEqual([]);
      }
      expect((await app.inject({ method: 'GET', url: '/api/adaptive/edited/v' })).json()).toEqual({
        v: reloads,
        n: 1000,
      });
      stop = true;
      await Promise.all(loaders);
      expect(failures).toEqual([]);
      expect(served).toBeGreaterThan(reloads);
    } finally {
      await app.close();
      removeWorkspace(workspace);
    }
  }, 300_000);
});

describe('shutdown', () => {
  it('ends within its grace period on SIGTERM while a handler spins', async () => {
    const workspace = makeWorkspace({
      'handlers/spin_handler.ts': `${sdk}router.get('/spin', () => { while (true) {} });\n`,
    });
    try {
      const { child, base, exit } = await startServerProcess({
        WORKSPACE: workspace,
        HANDLER_TIMEOUT_MS: '60000',
        SHUTDOWN_DRAIN_MS: '1000',
      });
      await waitUntilReady(base);
      const spinning = fetch(`${base}/api/adaptive/spin/spin`).then(
        (r) => r.status,
        () => 'connection closed',
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      // Exit code 0: it ended before the CLI's bound (the drain, then 10 s) would have forced exit code 1.
      // The time seen here adds the signal's delivery and the process's exit on a busy machine.
      expect(Date.now() - started).toBeLessThan(1000 + 10_000 + 2000);
      expect(await spinning).toBe(503);
    } finally {
      removeWorkspace(workspace);
    }
  }, 60_000);
});
