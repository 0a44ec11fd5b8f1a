import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { RefreshResult, WorkbenchDiagnostics } from '../contract/index.js';
import { loadConfig } from '../core/config.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';

const token = 'test-token-0123456789abcdefghij';
const auth = { 'x-workbench-token': token };

/** A spec whose one example is `example` (line 12, column 24 of the file). */
const spec = (example: string) => `openapi: 3.0.3
info: {title: Pets, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}}}
              example: ${example}
`;

let workspace: string | undefined;
let app: FastifyInstance | undefined;

async function start(workbench: boolean): Promise<FastifyInstance> {
  workspace = makeWorkspace({ 'specs/pets.yaml': spec('{id: two}') });
  const env = { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', WORKBENCH: String(workbench) };
  const config = loadConfig(env, { workspace });
  app = await buildServer(config, { logger: pino({ level: 'silent' }), workbenchToken: token });
  await app.ready();
  return app;
}

afterEach(async () => {
  await app?.close();
  if (workspace) removeWorkspace(workspace);
  app = workspace = undefined;
});

const refresh = async (server: FastifyInstance) =>
  (await server.inject({ method: 'POST', url: '/api/adaptive/actuator/refresh' })).json() as RefreshResult;
const diagnostics = async (server: FastifyInstance) =>
  ((await server.inject({ url: '/api/workbench/diagnostics', headers: auth })).json() as WorkbenchDiagnostics)
    .diagnostics;
const write = (text: string) => fs.writeFileSync(path.join(workspace!, 'specs/pets.yaml'), text);

describe('lint findings where the designer works', () => {
  it(
    'are in the refresh answer and the diagnostics at their place, and never stop the spec serving',
    {
      timeout: 120_000,
    },
    async () => {
      const server = await start(true);
      const result = await refresh(server);
      expect(result.status).toBe('success');
      expect(result.lint).toContainEqual(
        expect.objectContaining({ file: 'pets.yaml', rule: 'oas3-valid-media-example', severity: 'error', line: 12 }),
      );
      // Served with its invalid example: lint informs, it does not decide.
      expect((await server.inject({ url: '/api/adaptive/pets/pets' })).statusCode).toBe(200);
      const found = (await diagnostics(server)).filter((d) => d.source === 'lint');
      expect(found).toContainEqual(
        expect.objectContaining({
          path: 'specs/pets.yaml',
          severity: 'error',
          rule: 'oas3-valid-media-example',
          line: 12,
          column: expect.any(Number),
        }),
      );
      // Spectral's info and hint levels are shown as info, never as something the diagnostics do not know.
      expect(found.every((d) => ['error', 'warning', 'info'].includes(d.severity))).toBe(true);

      // A save that does not load: its load error at its place, not the findings of the last good version.
      write('openapi: 3.0.3\ninfo: {title: x, version: 1}\npaths:\n  /pets: [\n');
      const broken = await refresh(server);
      expect(broken.status).not.toBe('success');
      const now = await diagnostics(server);
      expect(now.filter((d) => d.source === 'lint' && d.path === 'specs/pets.yaml')).toEqual([]);
      expect(now.some((d) => d.path === 'specs/pets.yaml' && d.severity === 'error')).toBe(true);

      // Fixed: the finding is gone from both.
      write(spec('{id: 2}'));
      const fixed = await refresh(server);
      expect(fixed.lint?.map((f) => f.rule)).not.toContain('oas3-valid-media-example');
      expect((await diagnostics(server)).filter((d) => d.rule === 'oas3-valid-media-example')).toEqual([]);
    },
  );

  it('are not computed outside the workbench: the refresh answer has no lint', async () => {
    const server = await start(false);
    const result = await refresh(server);
    expect(result.status).toBe('success');
    expect(result.lint).toBeUndefined();
  });
});
