import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, removeWorkspace, serverForTests, writeFile } from '../../test-support/workspace.js';
import { WorkspaceHandlerEnv } from './workspace-env.js';

describe('WorkspaceHandlerEnv', () => {
  const withFolder = (check: (dir: string) => void) => {
    const dir = makeWorkspace();
    try {
      check(path.join(dir, 'handlers'));
    } finally {
      removeWorkspace(dir);
    }
  };

  it('is the deployment environment alone without a handlers/.env', () =>
    withFolder((dir) => {
      expect(new WorkspaceHandlerEnv({ PATH: '/usr/bin' }, dir, pino({ level: 'silent' })).current()).toEqual({
        PATH: '/usr/bin',
      });
    }));

  it('adds the file variables, keeps the deployment value of a name both set, and re-reads a changed file', () =>
    withFolder((dir) => {
      fs.writeFileSync(path.join(dir, '.env'), '# for the handlers\nPAYMENT_KEY="k 1"\nexport REGION=eu\nPATH=/evil\n');
      const env = new WorkspaceHandlerEnv({ PATH: '/usr/bin' }, dir, pino({ level: 'silent' }));
      const first = env.current();
      expect(first).toEqual({ PATH: '/usr/bin', PAYMENT_KEY: 'k 1', REGION: 'eu' });
      // Unchanged: the same object, so processes started with it are kept.
      expect(env.current()).toBe(first);
      fs.writeFileSync(path.join(dir, '.env'), 'PAYMENT_KEY=k2\n');
      expect(env.current()).toEqual({ PATH: '/usr/bin', PAYMENT_KEY: 'k2' });
      expect(env.current()).not.toBe(first);
    }));

  it('skips a line that names no variable, with a warning that quotes no value', () =>
    withFolder((dir) => {
      fs.writeFileSync(path.join(dir, '.env'), 'not a variable\n1X=secret-value\nGOOD=yes\n');
      const lines: string[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
      expect(new WorkspaceHandlerEnv({}, dir, log).current()).toEqual({ GOOD: 'yes' });
      expect(lines.join('')).toMatch(/skipped a line/);
      expect(lines.join('')).not.toMatch(/secret-value/);
    }));
});

describe('handlers/.env in a served workspace', () => {
  const sdk = `import { Router } from 'adaptive-workbench/handler';\nexport const router = new Router();\n`;
  const server = serverForTests(
    () =>
      makeWorkspace({
        'handlers/envy_handler.ts': `${sdk}router.get('/env', () => ({ ...process.env }));\n`,
        'handlers/pyenv_handler.py':
          `import os\nfrom fastapi import APIRouter\nrouter = APIRouter()\n\n` +
          `@router.get('/env')\ndef env():\n    return dict(os.environ)\n`,
        'handlers/.env': 'ORDERS_API_KEY=from-the-workspace\nWORKBENCH_TOKEN=set-by-the-file\n',
      }),
    { WORKBENCH_TOKEN: 'gateway-token-0123456789abcdef', IDP_CLIENT_SECRET: 'gateway-secret' },
  );
  const envOf = async (route: string) =>
    (await server.app.inject({ url: `/api/adaptive/${route}/env` })).json() as Record<string, string>;

  it("gives TypeScript and Python handlers the file's variables, never the gateway's secrets", async () => {
    for (const route of ['envy', 'pyenv']) {
      const env = await envOf(route);
      expect(env.ORDERS_API_KEY).toBe('from-the-workspace');
      // The file may name a variable the gateway has: the handler gets the file's value, not the gateway's.
      expect(env.WORKBENCH_TOKEN).toBe('set-by-the-file');
      expect(JSON.stringify(env)).not.toMatch(/gateway-token|gateway-secret/);
    }
  });

  it('restarts the modules with the new values when the file changes', async () => {
    writeFile(server.workspace, 'handlers/.env', 'ORDERS_API_KEY=rotated\n');
    await server.app.gateway.reload();
    for (const route of ['envy', 'pyenv']) {
      const env = await envOf(route);
      expect(env.ORDERS_API_KEY).toBe('rotated');
      expect(env.WORKBENCH_TOKEN).toBeUndefined();
    }
  });
});
