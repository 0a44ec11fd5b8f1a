import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { screenshot } from './screenshots.js';
import { copyExampleWorkspace, startWorkbenchServer } from './server-process.js';

// A first start: a server of its own on a fresh copy of the example workspace, not the shared one that the other
// specs leave files, faults and findings in.
test('a first start at 1280x720 leaves the editor 30 lines or more, the empty Problems panel a tab row', async ({
  page,
}) => {
  const workspace = copyExampleWorkspace('e2e-room');
  const server = await startWorkbenchServer({
    workspace,
    logFile: path.resolve('test-results', 'e2e-room-server.log'),
  });
  try {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(server.url);
    await page.locator('.tree-row[data-path="specs/library-api.openapi.yaml"]').click();
    const lines = page.locator('.editor-host .monaco-editor .view-lines');
    await expect(lines).toContainText('openapi');
    await expect(page.locator('.statusbar .status-problems')).toHaveText('0 errors, 0 warnings');
    const visibleLines = await page.evaluate(() => {
      const host = document.querySelector<HTMLElement>('.editor-host .monaco-editor')!;
      const line = host.querySelector<HTMLElement>('.view-line')!;
      return Math.floor(host.clientHeight / line.offsetHeight);
    });
    console.log(`[measure] visible editor lines at 1280x720: ${visibleLines}`);
    expect(visibleLines).toBeGreaterThanOrEqual(30);
    await expect(page.locator('.panel-tab[data-panel="problems"]')).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('[data-panel-body="problems"]')).toBeHidden();
    await screenshot(page, 'room-1280x720');
  } finally {
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
