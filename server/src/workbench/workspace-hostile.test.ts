import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../main/app.js';
import { loadConfig } from '../core/config.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';
import { maxEditableBytes } from './workspace-files.js';

const token = 'test-token-0123456789abcdefghij';
const auth = { 'x-workbench-token': token };
let workspace: string;
let app: FastifyInstance;

beforeAll(async () => {
  workspace = makeWorkspace({ 'specs/notes.txt': 'first\n' });
  const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent', WORKBENCH: 'true' }, { workspace });
  app = await buildServer(config, { logger: pino({ level: 'silent' }), workbenchToken: token });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  removeWorkspace(workspace);
});

const put = (file: string, payload: unknown) =>
  app.inject({
    method: 'PUT',
    url: `/api/workbench/files/content?path=${encodeURIComponent(file)}`,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

describe('workspace API with hostile input', () => {
  it('refuses content that is not a string instead of saving it as text', async () => {
    for (const content of [123, true, null, ['a'], { a: 1 }]) {
      const response = await put('specs/notes.txt', { content });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: '"content" must be a string', code: 'NOT_A_STRING' });
    }
    expect(fs.readFileSync(path.join(workspace, 'specs', 'notes.txt'), 'utf8')).toBe('first\n');
  });

  it('answers 400 for a name over 255 bytes, and the API keeps working', async () => {
    const long = 'é'.repeat(128);
    const created = await app.inject({
      method: 'POST',
      url: '/api/workbench/files',
      headers: auth,
      payload: { path: `specs/${long}.yaml`, content: '' },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().detail).toMatch(/^A file or folder name may be at most 255 bytes long: é{40}…$/);
    const renamed = await app.inject({
      method: 'POST',
      url: '/api/workbench/files/rename',
      headers: auth,
      payload: { from: 'specs/notes.txt', to: `specs/${'n'.repeat(256)}` },
    });
    expect(renamed.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/workbench/files', headers: auth })).statusCode).toBe(200);
  });

  it('names the limit that applies in every 413', async () => {
    const accepted = await put('specs/big.txt', { content: 'x'.repeat(4 * 1024 * 1024) });
    expect(accepted.statusCode).toBe(200);
    const overFile = await put('specs/big.txt', { content: 'x'.repeat(maxEditableBytes + 1) });
    expect(overFile.statusCode).toBe(413);
    expect(overFile.json()).toEqual({
      detail: `Files are limited to ${maxEditableBytes} bytes`,
      code: 'WB_CONTENT_TOO_LARGE',
    });
    const created = await app.inject({
      method: 'POST',
      url: '/api/workbench/files',
      headers: auth,
      payload: { path: 'specs/new.txt', content: 'x'.repeat(maxEditableBytes + 1) },
    });
    expect(created.statusCode).toBe(413);
    expect(fs.existsSync(path.join(workspace, 'specs', 'new.txt'))).toBe(false);
    const overBody = await put('specs/big.txt', { content: 'x'.repeat(maxEditableBytes * 2) });
    expect(overBody.statusCode).toBe(413);
    expect(overBody.json()).toEqual({
      detail: `Request body is larger than the limit of ${maxEditableBytes * 2} bytes`,
      code: 'BODY_TOO_LARGE',
    });
  });

  it(
    "refuses another origin's preflight without allowing anything, while the gateway's preflight still " + 'answers',
    async () => {
      const preflight = {
        origin: 'https://evil.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'x-workbench-token',
      };
      const refused = await app.inject({ method: 'OPTIONS', url: '/api/workbench/files/content', headers: preflight });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        detail: 'Cross-origin requests from https://evil.example are not accepted here',
        code: 'CORS_ORIGIN_REFUSED',
      });
      expect(Object.keys(refused.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      const gateway = await app.inject({ method: 'OPTIONS', url: '/api/adaptive/anything', headers: preflight });
      expect(gateway.statusCode).toBe(204);
      expect(gateway.headers['access-control-allow-origin']).toBe('*');
    },
  );
});
