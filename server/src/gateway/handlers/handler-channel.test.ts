import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

// A module that damages its own channel (fd 3) past the SDK, each route in its own way. Every route is a POST, so
// that the call cut off by the kill is answered at once (a GET would run once more and damage it again).
const vandal = `import fs from 'node:fs';
import { Router } from 'adaptive-workbench/handler';
export const router = new Router();
let calls = 0;
const header = (length: number, kind: number) => {
  const bytes = Buffer.alloc(13);
  bytes.writeUInt32LE(length, 0);
  bytes[4] = kind;
  return bytes;
};
const hang = () => new Promise(() => {});
router.post('/garbage', () => {
  fs.writeSync(3, '{"type":"result","id":1,"payload":"1"}\\n');
  return hang();
});
router.post('/huge-message', () => {
  fs.writeSync(3, header(2 ** 31, 0));
  return hang();
});
router.post('/not-json', () => {
  fs.writeSync(3, Buffer.concat([header(5, 0), Buffer.from('{{{{{')]));
  return hang();
});
router.post('/truncated-then-closed', () => {
  fs.writeSync(3, Buffer.concat([header(100, 0), Buffer.from('{"type":')]));
  fs.closeSync(3);
  return hang();
});
router.get('/count', () => ({ calls: ++calls }));
`;

describe('a handler that damages its channel', () => {
  let workspace: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    workspace = makeWorkspace({
      'handlers/vandal_handler.ts': vandal,
      'handlers/other_handler.ts':
        `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n` +
        `router.get('/ping', () => ({ pong: true }));\n`,
    });
    app = await startServer(workspace, { HANDLER_TIMEOUT_MS: '20000' });
  });
  afterAll(async () => {
    await app.close();
    removeWorkspace(workspace);
  });

  const call = (url: string, method: 'GET' | 'POST' = 'GET') =>
    app.inject({ method, url: `/api/adaptive${url}`, ...(method === 'POST' ? { payload: {} } : {}) });

  it.each([
    ['/garbage', 'wrote a frame of unknown kind 112 (bytes that are not frames) onto its channel'],
    ['/huge-message', 'wrote a frame of 2147483648 bytes onto its channel'],
    ['/not-json', 'wrote a frame that is not JSON onto its channel'],
    ['/truncated-then-closed', 'broke its channel: the channel was closed'],
  ])('%s: answers 503 naming it, restarts only that module, which serves afresh', async (route, reason) => {
    await call('/vandal/count');
    expect((await call('/vandal/count')).json().calls).toBeGreaterThan(1);
    const [damaged, other] = await Promise.all([call(`/vandal${route}`, 'POST'), call('/other/ping')]);
    expect(damaged.statusCode).toBe(503);
    expect(damaged.json()).toEqual({
      detail: `The handler vandal_handler.ts is restarting (${reason}); try again shortly`,
      code: 'HANDLER_RESTARTING',
    });
    expect(other.json()).toEqual({ pong: true });
    // A new process: its count starts afresh.
    const count = await call('/vandal/count');
    expect(count.statusCode).toBe(200);
    expect(count.json()).toEqual({ calls: 1 });
  });
});
