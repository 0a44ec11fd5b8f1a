import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { typeQuery } from './query-tabs.js';
import { screenshot } from './screenshots.js';
import { copyExampleWorkspace, startWorkbenchServer } from './server-process.js';

/**
 * A first start: a server of its own on a fresh copy of the example workspace (not the shared one that the other
 * specs leave files, faults and findings in), opened in `page` at `viewport`; `use` runs against it, then both go.
 */
async function firstStart(
  page: Page,
  name: string,
  viewport: { width: number; height: number },
  use: (workspace: string) => Promise<void>,
): Promise<void> {
  const workspace = copyExampleWorkspace(name);
  const server = await startWorkbenchServer({ workspace, logFile: path.resolve('test-results', `${name}-server.log`) });
  try {
    await page.setViewportSize(viewport);
    await page.goto(server.url);
    await use(workspace);
  } finally {
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

test('a first start at 1280x720 leaves the editor 30 lines or more, the empty Problems panel a tab row', async ({
  page,
}) => {
  await firstStart(page, 'e2e-room', { width: 1280, height: 720 }, async () => {
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
  });
});

test('a first start at 1440x900 shows 20 result rows or more; a problem takes only its own row of the panel', async ({
  page,
}) => {
  await firstStart(page, 'e2e-room-results', { width: 1440, height: 900 }, async (workspace) => {
    await page.getByRole('button', { name: 'New query' }).click();
    await typeQuery(page, 'SELECT i, i * 2 AS double_i, i % 7 AS weekday FROM range(500) t(i)');
    await page.keyboard.press('ControlOrMeta+Enter');
    const grid = page.getByRole('grid', { name: 'Query results' });
    await expect(grid.getByRole('gridcell', { name: '0', exact: true }).first()).toBeVisible();
    // Body rows wholly inside the grid's own box, below its (sticky) header row.
    const visibleRows = () =>
      grid.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const rows = Array.from(element.querySelectorAll('[role="row"]'));
        const header = rows.find((r) => r.querySelector('[role="columnheader"]'));
        const top = header ? header.getBoundingClientRect().bottom : box.top;
        return rows.filter((r) => {
          if (r === header) return false;
          const row = r.getBoundingClientRect();
          return row.top >= top - 1 && row.bottom <= Math.min(box.bottom, window.innerHeight) + 1;
        }).length;
      });
    const rows = await visibleRows();
    console.log(`[measure] result rows visible at 1440x900 (default layout): ${rows}`);
    await screenshot(page, 'result-rows-1440x900');
    expect(rows).toBeGreaterThanOrEqual(20);

    // A spec that does not parse: the Problems panel opens as tall as its one row, not its full size.
    fs.writeFileSync(path.join(workspace, 'specs/broken.openapi.yaml'), 'openapi: 3.0.3\ninfo: [\n');
    const problems = page.locator('[data-panel-body="problems"]');
    await expect(problems.locator('tr.problem')).toHaveCount(1);
    const panel = await problems.boundingBox();
    const row = await problems.locator('tr.problem').boundingBox();
    expect(panel!.height).toBeLessThan(row!.height + 20);
    console.log(`[measure] result rows visible at 1440x900 with one problem listed: ${await visibleRows()}`);
  });
});

test('the layout is remembered across a reload: the explorer width, a hidden region, the active panel', async ({
  page,
}) => {
  await page.goto(process.env.WORKBENCH_URL!);
  const explorer = page.locator('.explorer-pane');
  const width = async () => Math.round((await explorer.boundingBox())!.width);
  await expect(page.locator('.side-pane')).toBeVisible();
  const before = await width();
  const handle = (await page.getByRole('separator', { name: 'Resize explorer' }).boundingBox())!;
  const y = handle.y + handle.height / 2;
  await page.mouse.move(handle.x + handle.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2 + 100, y, { steps: 5 });
  await page.mouse.up();
  await expect.poll(width).toBeGreaterThan(before + 90);
  const resized = await width();
  await page.keyboard.press('ControlOrMeta+Alt+KeyB');
  await expect(page.locator('.side-pane')).toHaveCount(0);
  await page.locator('.panel-tab[data-panel="logs"]').click();

  await page.reload();
  await expect(explorer).toBeVisible();
  expect(await width()).toBe(resized);
  await expect(page.locator('.side-pane')).toHaveCount(0);
  await expect(page.locator('.panel-tab[data-panel="logs"]')).toHaveAttribute('aria-selected', 'true');
});

test('in a narrow window the explorer keeps its buttons inside it, the title gives way', async ({ page }) => {
  await page.setViewportSize({ width: 960, height: 720 });
  await page.goto(process.env.WORKBENCH_URL!);
  const pane = (await page.locator('.explorer-pane').boundingBox())!;
  const buttons = page.locator('.explorer-toolbar button');
  await expect(buttons).toHaveCount(5);
  for (const box of await buttons.evaluateAll((all) => all.map((b) => b.getBoundingClientRect().toJSON() as DOMRect)))
    expect(box.right).toBeLessThanOrEqual(pane.x + pane.width);
});
