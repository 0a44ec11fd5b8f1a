import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { screenshot } from './screenshots.js';
import { copyExampleWorkspace, freePort, startWorkbenchServer, type WorkbenchServer } from './server-process.js';

const firstToken = 'e2e-reconnect-first-token-0123456789';
const secondToken = 'e2e-reconnect-second-token-9876543210';
const specPath = 'specs/library-api.openapi.yaml';

test.describe.configure({ mode: 'serial' });

/**
 * A server of its own (the other specs share one that must not restart), restarted on the same port:
 * once crashed and back with the same token, once stopped and back with another.
 */
test('an open page reconnects to a restarted server, and asks for the new token in place when it changed', async ({
  page,
}) => {
  const workspace = copyExampleWorkspace('e2e-reconnect', ['specs', 'handlers', 'health.yaml']);
  const port = await freePort();
  let starts = 0;
  const start = (token: string) =>
    startWorkbenchServer({
      workspace,
      port,
      env: { WORKBENCH_TOKEN: token, SHUTDOWN_DRAIN_MS: '0' },
      logFile: path.resolve('test-results', `e2e-reconnect-server-${++starts}.log`),
    });
  let server: WorkbenchServer | undefined = await start(firstToken);
  try {
    await page.goto(server.url);
    const connection = page.locator('.statusbar .connection');
    const problems = page.locator('.statusbar .status-problems');
    await expect(connection).toHaveText('● connected');
    await expect(problems).toHaveText('0 errors, 0 warnings');
    // Requests seen by the page, so the first start's last event id is far above where the next start's begin.
    const books = `http://127.0.0.1:${port}/api/adaptive/library-api/books`;
    // The server listens before it has loaded the specs.
    await expect.poll(async () => (await page.request.get(books)).status()).toBe(200);
    for (let i = 0; i < 30; i++) expect((await page.request.get(books)).ok()).toBe(true);
    await page.locator('.panel-tab[data-panel="requests"]').click();
    await expect(page.locator('[data-panel-body="requests"]')).toContainText('/api/adaptive/library-api/books');

    // A crash: the page says so, and is back by itself when the server is (the token is the same).
    const lost = page.getByRole('alert').filter({ hasText: 'The server cannot be reached' });
    await expect(lost).toHaveCount(0);
    await server.stop('SIGKILL');
    await expect(connection).toHaveText('○ reconnecting');
    // Not only the status bar's text: a banner over the workbench, which says nothing typed is lost.
    await expect(lost).toBeVisible();
    await expect(lost).toContainText('Your edits are kept');
    await screenshot(page, 'reconnect-lost-banner');
    server = await start(firstToken);
    await expect(connection).toHaveText('● connected');
    await expect(lost).toHaveCount(0);
    // What the new start reports reaches the page: a spec broken now is counted in the status bar.
    fs.writeFileSync(path.join(workspace, 'specs/broken.openapi.yaml'), 'openapi: 3.0.3\npaths: [\n');
    await expect(problems).toHaveText('1 error, 0 warnings');

    // An unsaved edit, then a restart with a new token: the page asks for it over the open workbench.
    await page.locator(`.tree-row[data-path="${specPath}"]`).click();
    const editorLines = page.locator('.editor-host .monaco-editor .view-lines');
    await expect(editorLines).toContainText('openapi: 3.0.3');
    await editorLines.click();
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.type('# kept across the restart');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect(page.locator('.tab.active.dirty')).toBeVisible();
    await server.stop('SIGTERM');
    server = await start(secondToken);
    const prompt = page.getByRole('dialog', { name: 'The server restarted' });
    await expect(prompt).toBeVisible();
    await expect(connection).toHaveText('○ token refused');
    await prompt.getByLabel('Workbench URL or token').fill(server.url);
    await prompt.getByRole('button', { name: 'Open' }).click();
    await expect(prompt).toHaveCount(0);
    await expect(connection).toHaveText('● connected');
    // No reload happened: the edit is still there, and saves through the new token.
    await expect(page.locator('.tab.active.dirty')).toBeVisible();
    await editorLines.click();
    await page.keyboard.press('ControlOrMeta+S');
    await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
    expect(fs.readFileSync(path.join(workspace, specPath), 'utf8')).toMatch(/^# kept across the restart\n/);
    await expect(problems).toHaveText('1 error, 0 warnings');
  } finally {
    await server?.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
