import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedMessage, oversizedResult } from './handler-messages.js';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

describe('checkedMessage', () => {
  const limit = 100;
  const httpError = {
    type: 'http-error',
    id: 3,
    status: 418,
    detail: 'teapot',
    code: 'HANDLER_HTTP_EXCEPTION',
    extra: {},
  };

  it('passes the messages a handler process sends', () => {
    for (const message of [
      { type: 'booted' },
      { type: 'result', id: 1 },
      { type: 'result', id: 1, payload: '"x"' },
      httpError,
      { type: 'failed', id: 2, error: { name: 'Error', message: 'boom', stack: 'at x' } },
      { type: 'too-large', id: 2, size: 1000 },
      { type: 'ready', routes: [{ method: 'GET', path: '/a/{b}', paramNames: ['b'], schema: {} }] },
      { type: 'load-failed', reason: 'no-router' },
    ])
      expect(checkedMessage(message, limit)).toBe(message);
  });

  it('names what is wrong with a forged message, and the call it names', () => {
    expect(checkedMessage({ ...httpError, status: 99999 }, limit)).toEqual({
      type: 'invalid',
      id: 3,
      problem: 'a "http-error" message whose status 99999 is not an HTTP status (an integer from 100 to 599)',
    });
    expect(checkedMessage({ ...httpError, status: 404.5 }, limit)).toMatchObject({ type: 'invalid' });
    expect(checkedMessage({ ...httpError, code: 'MADE_UP' }, limit)).toMatchObject({ type: 'invalid', id: 3 });
    expect(checkedMessage({ ...httpError, extra: { code: 'INTERNAL' } }, limit)).toMatchObject({ type: 'invalid' });
    expect(checkedMessage({ type: 'result', id: 4, payload: `"${'é'.repeat(60)}"` }, limit)).toEqual({
      type: 'invalid',
      id: 4,
      problem: 'a "result" message whose payload of 122 bytes is over the 100-byte limit',
    });
    expect(checkedMessage({ type: 'result', id: 4, payload: 5 }, limit)).toMatchObject({ type: 'invalid', id: 4 });
    expect(checkedMessage({ type: 'result', id: 'x' }, limit)).toMatchObject({ type: 'invalid' });
    expect(checkedMessage({ type: 'result', id: 'x' }, limit)).not.toHaveProperty('id');
    expect(checkedMessage({ type: 'teleport' }, limit)).toMatchObject({ type: 'invalid' });
    expect(checkedMessage({ type: 'ready', routes: [{ method: 'TRACE', path: '/' }] }, limit)).toMatchObject({
      type: 'invalid',
    });
    expect(checkedMessage(null, limit)).toMatchObject({ type: 'invalid' });
  });

  it('names the call of a result frame over the limit, and no call for an id that is not one', () => {
    expect(oversizedResult(7, 101, limit)).toEqual({
      type: 'invalid',
      id: 7,
      problem: 'a "result" message whose payload of 101 bytes is over the 100-byte limit',
    });
    expect(oversizedResult(-1, 101, limit)).not.toHaveProperty('id');
    expect(oversizedResult(Number.NaN, 101, limit)).not.toHaveProperty('id');
  });
});

/** A module whose routes answer through the process channel themselves; call ids count from 1 per module. */
const forger = `import fs from 'node:fs';
import { Router } from 'adaptive-workbench/handler';
export const router = new Router();
let id = 0;
/** A frame written onto the process's channel (fd 3) past the SDK, as a hostile module could. */
const writeFrame = (kind: number, callId: number, text: string) => {
  const body = Buffer.from(text);
  const frame = Buffer.alloc(13 + body.length);
  frame.writeUInt32LE(body.length, 0);
  frame[4] = kind;
  frame.writeDoubleLE(callId, 5);
  body.copy(frame, 13);
  for (let offset = 0; offset < frame.length; ) {
    try {
      offset += fs.writeSync(3, frame, offset);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EAGAIN') throw error;
    }
  }
};
const forge = (message: Record<string, unknown>) => {
  ++id;
  if (message.type === 'result' && typeof message.payload === 'string') writeFrame(1, id, message.payload);
  else writeFrame(0, 0, JSON.stringify({ ...message, id }));
  return new Promise(() => {});
};
router.get('/big', () => forge({ type: 'result', payload: JSON.stringify('x'.repeat(40 * 1024 * 1024)) }));
router.get('/status', () =>
  forge({ type: 'http-error', status: 99999, detail: 'odd', code: 'HANDLER_HTTP_EXCEPTION', extra: {} }),
);
router.get('/shape', () => forge({ type: 'result', payload: { not: 'text' } }));
router.get('/ok', () => ({ ok: true, calls: ++id }));
`;

describe('a handler that forges protocol messages', () => {
  let workspace: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    workspace = makeWorkspace({
      'handlers/forger_handler.ts': forger,
      'handlers/other_handler.ts':
        `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n` +
        `router.get('/ping', () => ({ pong: true }));\n`,
    });
    app = await startServer(workspace, { HANDLER_RESPONSE_LIMIT: '8mb' });
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  const get = (url: string) => app.inject({ url: `/api/adaptive${url}` });

  it('answers each forged message 502 HANDLER_PROTOCOL_ERROR, and the module and others keep serving', async () => {
    const [big, other] = await Promise.all([get('/forger/big'), get('/other/ping')]);
    expect(big.statusCode).toBe(502);
    expect(big.body.length).toBeLessThan(1000);
    expect(big.json()).toEqual({
      detail: expect.stringMatching(
        new RegExp(
          '^The handler forger_handler.ts answered with a "result" message whose payload of \\d+ bytes ' +
            'is over the 8388608-byte limit$',
        ),
      ),
      code: 'HANDLER_PROTOCOL_ERROR',
    });
    expect(other.statusCode).toBe(200);

    const status = await get('/forger/status');
    expect(status.statusCode).toBe(502);
    expect(status.json()).toEqual({
      detail:
        'The handler forger_handler.ts answered with a "http-error" message whose status 99999 is not an HTTP ' +
        'status (an integer from 100 to 599)',
      code: 'HANDLER_PROTOCOL_ERROR',
    });
    const shape = await get('/forger/shape');
    expect(shape.statusCode).toBe(502);
    expect(shape.json().code).toBe('HANDLER_PROTOCOL_ERROR');

    // The same process serves on, with its state: four calls so far.
    const ok = await get('/forger/ok');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, calls: 4 });
    expect((await get('/other/ping')).statusCode).toBe(200);
  });
});
