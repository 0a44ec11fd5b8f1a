import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { _electron as electron, expect, test } from '@playwright/test';
import { copyExampleWorkspace } from './server-process.js';

const root = path.resolve(import.meta.dirname, '..');

/** The Electron binary, when one is installed (it is downloaded at install time, which some machines cannot do). */
function electronBinary(): string | undefined {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();

test.describe('desktop app (Electron smoke test)', () => {
  test.skip(
    !binary,
    'No Electron binary is installed here (npm start fetches it where it can); the same UI is tested in ' +
      'Chromium against serve --workbench',
  );

  test('opens a window on the embedded server and reloads a spec edit', async () => {
    const workspace = copyExampleWorkspace('electron-e2e', ['specs']);
    fs.mkdirSync(path.join(workspace, 'handlers'));
    const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-electron-user-'));
    fs.writeFileSync(path.join(userData, 'state.json'), JSON.stringify({ recentWorkspaces: [workspace] }));
    const app = await electron.launch({
      executablePath: binary,
      args: [root],
      env: { ...process.env, LOG_LEVEL: 'warn', ADAPTIVE_WORKBENCH_USER_DATA: userData },
    });
    try {
      const window = await app.firstWindow();
      await expect(window).toHaveURL(/\/workbench\/\?token=/);
      const origin = new URL(window.url()).origin;
      const books = await window.evaluate(
        async (url) => (await fetch(url)).status,
        `${origin}/api/adaptive/library-api/books`,
      );
      expect(books).toBe(200);
      fs.writeFileSync(
        path.join(workspace, 'specs', 'ping.openapi.json'),
        JSON.stringify({
          openapi: '3.0.3',
          info: { title: 'p', version: '1' },
          paths: {
            '/ping': {
              get: {
                responses: {
                  '200': { description: 'ok', content: { 'application/json': { example: { pong: true } } } },
                },
              },
            },
          },
        }),
      );
      await expect
        .poll(() => window.evaluate(async (url) => (await fetch(url)).status, `${origin}/api/adaptive/ping/ping`), {
          timeout: 15_000,
        })
        .toBe(200);
    } finally {
      await app.close();
      fs.rmSync(workspace, { recursive: true, force: true });
      fs.rmSync(userData, { recursive: true, force: true });
    }
  });
});
