import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace, writeFile } from '../test-support/workspace.js';

describe('the readiness probe', () => {
  const workspace = makeWorkspace();
  afterAll(() => removeWorkspace(workspace));

  it('is 503 DOWN with a catalogued {detail, code} while the workspace loads, then UP', async () => {
    // A handler whose top level takes a second keeps the workspace loading for that long.
    writeFile(workspace, 'handlers/slow_handler.ts', 'await new Promise((r) => setTimeout(r, 1000));\nexport {};\n');
    const config = loadConfig({ HOT_RELOAD: 'false', LOG_LEVEL: 'silent' }, { workspace });
    const app = await buildServer(config, { logger: pino({ level: 'silent' }) });
    try {
      await app.ready();
      const loading = await app.inject({ url: '/api/adaptive/actuator/health/readiness' });
      expect(loading.statusCode).toBe(503);
      expect(loading.json()).toEqual({
        status: 'DOWN',
        code: 'NOT_READY',
        detail: 'The gateway has not finished loading the workspace',
      });
      await app.gateway.start();
      expect((await app.inject({ url: '/api/adaptive/actuator/health/readiness' })).json()).toEqual({ status: 'UP' });
    } finally {
      await app.close();
    }
  });
});
