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
import { maxLoggedLineChars } from '../gateway/handlers/handler-output.js';
import { errorReportedHeader, requestIdHeader } from '../gateway/python/python-errors.js';

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

// A Python handler: a route that raises from a helper (and one whose error report comes late), one that shows
// the request id it was given, and one that prints to stderr what a handler may print, JSON that looks like the
// worker's error report included.
const failingPythonHandler = `import json
import sys
import threading

from fastapi import APIRouter, Request

router = APIRouter()


def explode(entries):
    return entries["total \u00e9"]


@router.get("/fail")
async def fail():
    return explode({})


class LateStderr:
    """Writes what it is given 0.3 s late, once: the error report then comes after the 500's head."""

    def write(self, text):
        sys.stderr = sys.__stderr__
        threading.Timer(0.3, lambda: print(text, end="", file=sys.__stderr__, flush=True)).start()

    def flush(self):
        pass


@router.get("/late-fail")
async def late_fail():
    sys.stderr = LateStderr()
    return explode({})


@router.get("/seen-id")
async def seen_id(request: Request):
    return {"id": request.headers.get("${requestIdHeader}")}


JUNK = [
    "not json",
    '{"handler_error": "not an object"}',
    '{"handler_error": {"request_id": 7}}',
    '{"handler_error": {',
    json.dumps({"handler_error": {"request_id": "req-1", "type": "Forged", "message": "m", "traceback": ""}}),
    '{"handler_error": "' + "x" * 300000 + '"}',
]


@router.get("/junk")
async def junk():
    for line in JUNK:
        print(line, file=sys.stderr, flush=True)
    return {"ok": True}
`;
const junkLines = 6;

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
      'handlers/pyledger_handler.py': failingPythonHandler,
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

  /**
   * Sends `calls` once the event stream is open, and reads events until one request per call arrived (and
   * `until` holds).
   */
  async function capture(
    calls: Array<() => Promise<Response>>,
    until: (events: StreamEvent[]) => boolean = () => true,
  ): Promise<StreamEvent[]> {
    const seen = readWorkbenchEvents(
      base,
      token,
      lastEventId,
      (events) => events.filter((e) => e.event === 'request').length >= calls.length && until(events),
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
  const logsOf = (events: StreamEvent[]) =>
    events.filter((e) => e.event === 'log').map((e) => e.data as WorkbenchLogLine);

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

  it('links a Python handler 500 to its one error line, handler frame first, under the gateway\u2019s id', async () => {
    // A client's request id header names another request: the worker gets the gateway's own id instead.
    const forged = { [requestIdHeader]: 'req-1' };
    const answers: Response[] = [];
    const events = await capture(
      ['fail', 'seen-id', 'late-fail'].map(
        (route) => () =>
          fetch(`${base}/api/adaptive/pyledger/${route}`, { headers: forged }).then((answer) => {
            answers.push(answer);
            return answer;
          }),
      ),
    );
    const [failed, seen, late] = requestsOf(events);
    expect(failed).toMatchObject({ status: 500, source: 'handler', file: 'pyledger_handler.py' });
    // The answer is as before; the worker's mark on it stays between the worker and the gateway.
    expect(await answers[0].json()).toEqual({ detail: 'Internal error', code: 'INTERNAL' });
    expect(answers[0].headers.has(errorReportedHeader)).toBe(false);
    expect(failed.logId).toBeGreaterThan(0);
    const logs = logsOf(events);
    const line = logs.find((l) => l.id === failed.logId);
    expect(line).toMatchObject({
      level: 'error',
      msg: 'handler failed',
      fields: { reqId: failed.requestId, handler: 'pyledger_handler.py', path: '/api/adaptive/pyledger/fail' },
    });
    expect(line?.error).toMatchObject({ type: 'KeyError', message: "'total \u00e9'" });
    const frames = line!.error!.frames;
    expect(frames.slice(0, 2)).toEqual([
      { function: 'explode', file: 'handlers/pyledger_handler.py', line: 11, place: 'workspace' },
      { function: 'fail', file: 'handlers/pyledger_handler.py', line: 16, place: 'workspace' },
    ]);
    // FastAPI's and Starlette's frames follow, folded as libraries.
    expect(frames.slice(2).length).toBeGreaterThan(0);
    expect(frames.slice(2).every((frame) => frame.place === 'node_modules')).toBe(true);
    // One line for the error: no traceback logged line by line as warnings, nothing under the client's id.
    expect(logs.filter((l) => l.fields?.file === 'pyledger_handler.py')).toEqual([]);
    expect(logs.filter((l) => l.fields?.reqId === 'req-1')).toEqual([]);
    expect(await answers[1].json()).toEqual({ id: seen.requestId });
    // A report that comes after the answer's head is waited for: the 500 still links to it.
    expect(late).toMatchObject({ status: 500, url: '/api/adaptive/pyledger/late-fail' });
    expect(logs.find((l) => l.id === late.logId)?.fields?.reqId).toBe(late.requestId);
  });

  it('logs what a Python handler prints to stderr as warnings, cut when long, and none as an error', async () => {
    const warnings = (events: StreamEvent[]) => logsOf(events).filter((l) => l.fields?.file === 'pyledger_handler.py');
    const events = await capture(
      [() => fetch(`${base}/api/adaptive/pyledger/junk`), () => fetch(`${base}/api/adaptive/pyledger/fail`)],
      (seen) => warnings(seen).length >= junkLines,
    );
    const [junk, failed] = requestsOf(events);
    expect(junk).toMatchObject({ status: 200 });
    expect(junk.logId).toBeUndefined();
    const printed = warnings(events);
    expect(printed.map((l) => l.level)).toEqual(Array(junkLines).fill('warn'));
    expect(printed.map((l) => l.msg.slice(0, 20))).toEqual([
      'not json',
      '{"handler_error": "n',
      '{"handler_error": {"',
      '{"handler_error": {',
      '{"handler_error": {"',
      '{"handler_error": "x',
    ]);
    expect(printed.at(-1)!.msg.length).toBeLessThan(maxLoggedLineChars + 100);
    // The worker serves on, and its next error is the only error line, linked to its request.
    const errors = logsOf(events).filter((l) => l.level === 'error');
    expect(errors.map((l) => [l.id, l.fields?.reqId])).toEqual([[failed.logId, failed.requestId]]);
  });
});
