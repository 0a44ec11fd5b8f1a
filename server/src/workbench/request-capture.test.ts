import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbenchLogLine, WorkbenchRequest } from '../contract/index.js';
import { buildServer } from '../main/app.js';
import { loadConfig } from '../core/config.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';
import { readWorkbenchEvents, type StreamEvent } from '../test-support/workbench-events.js';
import { requestOrigin, tryOutHeader } from './request-capture.js';

const token = 'capture-test-token-0123456789abcdef';

// A handler whose route throws from a helper: its frames come first in the logged stack.
const failingHandler = `import { Router } from 'adaptive-workbench/handler';
function explode(): never {
  throw new TypeError('the ledger is empty');
}
export const router = new Router();
router.get('/fail', {}, () => explode());
router.get('/ok', {}, () => ({ ok: true }));
`;

describe('request origin', () => {
  it('is the workbench only with this launch\u2019s token', () => {
    expect(requestOrigin({ 'x-workbench-token': token }, token)).toBe('workbench');
    // A wrong or repeated token is not the workbench: it cannot hide a request from the panel.
    expect(requestOrigin({ 'x-workbench-token': `${token}x` }, token)).toBe('external');
    expect(requestOrigin({ 'x-workbench-token': '' }, token)).toBe('external');
    expect(requestOrigin({ 'x-workbench-token': [token, token] as unknown as string }, token)).toBe('external');
  });

  it('is a try-out when marked, or sent from the Swagger UI page; anything else is external', () => {
    expect(requestOrigin({ [tryOutHeader]: 'swagger-ui' }, token)).toBe('try-out');
    expect(requestOrigin({ referer: 'http://127.0.0.1:8080/api/adaptive/swagger-ui/index.html' }, token)).toBe(
      'try-out',
    );
    expect(requestOrigin({ referer: 'http://127.0.0.1:8080/workbench/' }, token)).toBe('external');
    expect(requestOrigin({ referer: 'not a url /api/adaptive/swagger-ui/' }, token)).toBe('external');
    expect(requestOrigin({}, token)).toBe('external');
  });
});

describe('request capture', () => {
  let workspace: string;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    workspace = makeWorkspace({
      'handlers/ledger_handler.ts': failingHandler,
      'health.yaml': 'components: {}\n',
      'query/sources.yaml': 'sources: []\n',
    });
    const config = loadConfig(
      { HOT_RELOAD: 'false', LOG_LEVEL: 'info', WORKBENCH: 'true', HEALTH_CONFIG: 'health.yaml' },
      { workspace },
    );
    const logger = pino({ level: 'info' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
    app = await buildServer(config, { logger, workbenchToken: token });
    await app.ready();
    await app.gateway.start();
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  /** The last event an earlier test read: each test reads only the events after it. */
  let lastEventId: Record<string, string> = {};

  /** Sends `calls` once the event stream is open, and reads events until one request per call arrived. */
  async function capture(calls: Array<() => Promise<Response>>): Promise<StreamEvent[]> {
    const seen = readWorkbenchEvents(
      base,
      token,
      lastEventId,
      (events) => events.filter((e) => e.event === 'request').length >= calls.length,
    ).then((events) => {
      const last = events.at(-1)!;
      lastEventId = { 'last-event-id': `${last.instance}:${last.id}` };
      return events;
    });
    // The stream is open once the hub has a subscriber; capture is off until then.
    while (!(await fetch(`${base}/api/workbench/diagnostics`, { headers: { 'x-workbench-token': token } })).ok);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const call of calls) await call();
    return seen;
  }

  const requestsOf = (events: StreamEvent[]) =>
    events.filter((e) => e.event === 'request').map((e) => e.data as WorkbenchRequest);

  it('marks each request with its origin and the server\u2019s request id', async () => {
    const events = await capture([
      () => fetch(`${base}/api/health`, { headers: { 'x-workbench-token': token } }),
      () => fetch(`${base}/api/adaptive/openapi.json`, { headers: { 'x-workbench-token': token } }),
      () => fetch(`${base}/api/adaptive/ledger/ok`, { headers: { [tryOutHeader]: 'swagger-ui' } }),
      () => fetch(`${base}/api/adaptive/ledger/ok?from=curl`),
      () => fetch(`${base}/api/adaptive/ledger/ok`, { headers: { 'x-workbench-token': 'guessed' } }),
      // The mark of the server's own in-process requests, forged: still captured.
      () => fetch(`${base}/api/adaptive/ledger/ok?forged`, { headers: { 'x-adaptive-internal': 'guessed' } }),
    ]);
    const requests = requestsOf(events);
    expect(requests.map((r) => [r.url, r.origin])).toEqual([
      ['/api/health', 'workbench'],
      ['/api/adaptive/openapi.json', 'workbench'],
      ['/api/adaptive/ledger/ok', 'try-out'],
      ['/api/adaptive/ledger/ok?from=curl', 'external'],
      ['/api/adaptive/ledger/ok', 'external'],
      ['/api/adaptive/ledger/ok?forged', 'external'],
    ]);
    const ids = requests.map((r) => r.requestId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^req-/);
    // The token never shows, whether right or wrong.
    expect(requests[0].request.headers['x-workbench-token']).toBe('[redacted]');
    expect(requests[4].request.headers['x-workbench-token']).toBe('[redacted]');
    expect(requests.every((r) => r.logId === undefined)).toBe(true);
  });

  it('links a handler 500 to its log line, whose stack starts in the handler', async () => {
    const events = await capture([() => fetch(`${base}/api/adaptive/ledger/fail`)]);
    const [failed] = requestsOf(events);
    expect(failed).toMatchObject({ status: 500, source: 'handler', origin: 'external' });
    expect(failed.logId).toBeGreaterThan(0);
    const logs = events.filter((e) => e.event === 'log').map((e) => e.data as WorkbenchLogLine);
    const line = logs.find((l) => l.id === failed.logId);
    expect(line).toMatchObject({ level: 'error', msg: 'handler failed', fields: { reqId: failed.requestId } });
    expect(line?.error).toMatchObject({ type: 'TypeError', message: 'the ledger is empty' });
    const frames = line!.error!.frames;
    expect(frames[0]).toMatchObject({ function: 'explode', file: 'handlers/ledger_handler.ts', line: 3 });
    expect(frames[0].place).toBe('workspace');
    // The raw stack is not repeated in the fields.
    expect(JSON.stringify(line?.fields)).not.toContain('the ledger is empty');
    // Ids are unique per line and rise.
    const ids = logs.map((l) => l.id!);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });
});
