import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { screenshot } from './screenshots.js';
import { typeQuery } from './query-tabs.js';

// Queries are written in tabs of the editor area (issue #24): several at once, each with its own kind,
// text and results; results that can fill the tab; saved queries as files of query/saved/; word wrap.

const url = () => process.env.WORKBENCH_URL!;
const savedFile = 'query/saved/e2e-workspace.sql';
const onDisk = (workspacePath: string) => path.join(process.env.WORKBENCH_WORKSPACE!, workspacePath);

test.describe.configure({ mode: 'serial' });
test.afterAll(() => fs.rmSync(onDisk(savedFile), { force: true }));

/** How many rows of the results grid (its header included) are shown from top to bottom, not cut by the grid's
 * scroll box or the window (columns may run past the right edge). */
async function rowsShownWhole(page: Page): Promise<number> {
  return page.getByRole('grid', { name: 'Query results' }).evaluate((grid) => {
    const box = grid.getBoundingClientRect();
    const bottom = Math.min(box.bottom, window.innerHeight);
    return Array.from(grid.querySelectorAll('[role="row"]')).filter((row) => {
      const r = row.getBoundingClientRect();
      return r.top >= box.top && r.bottom <= bottom + 0.5;
    }).length;
  });
}

const editorTab = (page: Page, name: string) => page.locator('.tabs .tab', { hasText: name });
const stats = (page: Page) => page.getByLabel('Result statistics');

test('query tabs: two kinds at once, maximised results, a saved query, wrap, and a reload', async ({ page }) => {
  // A laptop's height: below the editor there is no room for ten rows until the results are maximised.
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.addInitScript(() => {
    // Only on the first load: the reload below must find what this test left.
    if (sessionStorage.getItem('e2e-started')) return;
    sessionStorage.setItem('e2e-started', '1');
    localStorage.setItem('adaptive-workbench:layout', JSON.stringify({ sideVisible: false, bottomVisible: false }));
  });
  await page.goto(url());
  await expect(page.locator('.welcome')).toBeVisible();

  // A SQL tab from the title bar: the welcome text gives way to the console.
  await page.getByRole('button', { name: 'New query' }).click();
  await expect(editorTab(page, 'Query 1')).toHaveClass(/active/);
  await expect(page.locator('.welcome')).toHaveCount(0);
  await typeQuery(page, 'SELECT * FROM shop.orders LIMIT 10');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(stats(page)).toContainText('10 rows');

  // A SPARQL tab from its shortcut, with results of its own.
  await page.keyboard.press('Alt+Shift+KeyQ');
  await expect(editorTab(page, 'Query 2')).toHaveClass(/active/);
  await expect(page.getByRole('tab', { name: 'SPARQL' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.query-output .placeholder')).toBeVisible();
  await typeQuery(page, 'SELECT ?customer WHERE { ?customer a <http://example.com/shop#Customer> } LIMIT 4');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(stats(page)).toContainText('4 rows');
  await screenshot(page, 'query-workspace-01-sparql-tab');

  // Back in the SQL tab: its own text and rows.
  await editorTab(page, 'Query 1').click();
  await expect(page.locator('.query-editor .view-lines')).toContainText('shop.orders');
  await expect(stats(page)).toContainText('10 rows');

  // Maximised, the results fill the tab: every one of the ten rows is in view, where they were not.
  const rows = page.getByRole('grid', { name: 'Query results' }).getByRole('row');
  await expect(rows).toHaveCount(11);
  expect(await rowsShownWhole(page)).toBeLessThan(11);
  await page.getByRole('button', { name: 'Maximise' }).click();
  await expect(page.locator('.query-editor')).toHaveCount(0);
  await expect.poll(() => rowsShownWhole(page)).toBe(11);
  // The header's columns line up with the rows' though the result is wider than the window (each row is a grid).
  const lefts = (cells: Locator) => cells.evaluateAll((all) => all.map((c) => Math.round(c.getBoundingClientRect().x)));
  expect(await lefts(rows.nth(0).getByRole('columnheader'))).toEqual(await lefts(rows.nth(1).locator('.results-cell')));
  await screenshot(page, 'query-workspace-02-maximised');
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.locator('.query-editor')).toBeVisible();

  // Word wrap: a long line takes several screen lines once Alt+Z turns it on.
  const columns = Array.from({ length: 40 }, (_, i) => `amount AS amount_${i}`).join(', ');
  const longLine = `SELECT ${columns} FROM shop.orders`;
  await typeQuery(page, longLine);
  const viewLines = page.locator('.query-editor .view-line');
  await expect(viewLines).toHaveCount(1);
  await page.keyboard.press('Alt+KeyZ');
  await expect(page.getByRole('button', { name: 'Wrap' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => viewLines.count()).toBeGreaterThan(1);
  await screenshot(page, 'query-workspace-03-wrap');
  await typeQuery(page, 'SELECT * FROM shop.orders LIMIT 10');

  // Saved as a file of query/saved/: the tab now shows the file.
  await page.getByRole('button', { name: 'Save query as…' }).click();
  await page.getByLabel('Query file name').fill('../escape');
  await page.getByLabel('Query file name').press('Enter');
  await expect(page.locator('.statusbar')).toContainText('not a plain file name');
  await page.getByLabel('Query file name').press('Escape');
  // Typed, the name replaces the one offered (it was once appended to it).
  await page.getByRole('button', { name: 'Save query as…' }).click();
  await expect(page.getByLabel('Query file name')).toBeFocused();
  await page.keyboard.type('e2e-workspace');
  await screenshot(page, 'query-workspace-04-save-as');
  await page.getByLabel('Query file name').press('Enter');
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', savedFile);
  expect(fs.readFileSync(onDisk(savedFile), 'utf8')).toBe('SELECT * FROM shop.orders LIMIT 10');

  // Closed, and opened again from the explorer: a query tab bound to the file.
  await page.locator('.tab.active .tab-close').click();
  await expect(page.locator(`.tab[data-path="${savedFile}"]`)).toHaveCount(0);
  await page.locator('.tree-row[data-path="query"]').click();
  await page.locator('.tree-row[data-path="query/saved"]').click();
  await page.locator(`.tree-row[data-path="${savedFile}"]`).click();
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', savedFile);
  await expect(page.locator('.query-editor .view-lines')).toContainText('LIMIT 10');
  await expect(page.getByRole('tab', { name: 'SPARQL' })).toHaveCount(0);

  // An edit marks it unsaved, Ctrl+Enter runs it, Ctrl+S saves it.
  await typeQuery(page, 'SELECT * FROM shop.orders LIMIT 12');
  await expect(page.locator('.tab.active.dirty')).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(stats(page)).toContainText('12 rows');
  await screenshot(page, 'query-workspace-05-saved-query');
  await page.keyboard.press('ControlOrMeta+KeyS');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
  expect(fs.readFileSync(onDisk(savedFile), 'utf8')).toBe('SELECT * FROM shop.orders LIMIT 12');

  // A reload keeps the tabs, their kinds and texts, and the wrap setting.
  await page.reload();
  await expect(editorTab(page, 'Query 2')).toBeVisible();
  await expect(page.locator(`.tab[data-path="${savedFile}"]`)).toHaveClass(/active/);
  await expect(page.locator('.query-editor .view-lines')).toContainText('LIMIT 12');
  await expect(page.getByRole('button', { name: 'Wrap' })).toHaveAttribute('aria-pressed', 'true');
  await editorTab(page, 'Query 2').click();
  await expect(page.getByRole('tab', { name: 'SPARQL' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.query-editor .view-lines')).toContainText('shop#Customer');
  await screenshot(page, 'query-workspace-06-after-reload');
});

test('the Query panel opens query tabs of each kind', async ({ page }) => {
  // A tall panel under a short editor area: the welcome text must not cover the panel's buttons.
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.addInitScript(() =>
    localStorage.setItem(
      'adaptive-workbench:layout',
      JSON.stringify({ bottomVisible: true, bottomHeight: 420, bottomPanel: 'query', sideVisible: false }),
    ),
  );
  await page.goto(url());
  await expect(page.locator('.welcome')).toBeVisible();
  const panel = page.locator('.query-launcher');
  const button = panel.getByRole('button', { name: 'New question' });
  const box = (await button.boundingBox())!;
  const hit = await page.evaluate(
    ([x, y]) => document.elementFromPoint(x, y)?.closest('.query-launcher') !== null,
    [box.x + box.width / 2, box.y + box.height / 2],
  );
  expect(hit).toBe(true);
  await panel.getByRole('button', { name: 'New question' }).click();
  await expect(page.getByLabel('Question')).toBeVisible();
  await panel.getByRole('button', { name: 'New SPARQL query' }).click();
  await expect(page.locator('.tabs .tab')).toHaveCount(2);
  await expect(panel).toContainText('Query 1 (question), Query 2 (SPARQL)');
  await screenshot(page, 'query-workspace-07-query-panel');
  // A question cannot be saved: Ctrl+S says so instead of asking for a name.
  await editorTab(page, 'Query 1').click();
  await page.getByLabel('Question').click();
  await page.keyboard.press('ControlOrMeta+KeyS');
  await expect(page.locator('.statusbar')).toContainText('A question is not saved');
  await expect(page.getByLabel('Query file name')).toHaveCount(0);
});
