import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './screenshots.js';

// Keyboard first (issue 38): every flow here runs without the mouse.

const url = () => process.env.WORKBENCH_URL!;
const onDisk = (workspacePath: string) => path.join(process.env.WORKBENCH_WORKSPACE!, workspacePath);

test.describe.configure({ mode: 'serial' });

test.afterAll(() => {
  for (const name of fs.readdirSync(onDisk('handlers')))
    if (name.startsWith('e2e-kbd-')) fs.rmSync(onDisk(`handlers/${name}`), { recursive: true, force: true });
});

/** Presses Tab until the element `selector` has the focus (a bounded number of times). */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (await page.locator(selector).evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** The path of the explorer's row that the tree names as its active descendant. */
async function activeRow(page: Page): Promise<string | null> {
  return page.locator('.tree').evaluate((tree) => {
    const id = tree.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.getAttribute('data-path') ?? null) : null;
  });
}

test('the explorer is a tree driven by arrows, Home/End, Enter and type-ahead', async ({ page }) => {
  await page.goto(url());
  // The first listing can take long on a loaded machine (two cores shared by every job).
  await expect(page.locator('.tree-row[data-path="specs"]')).toBeVisible({ timeout: 90_000 });
  await tabTo(page, '.tree');
  await expect.poll(() => activeRow(page)).toBe('specs');
  const specs = page.getByRole('treeitem', { name: 'specs', exact: true });
  await expect(specs).toHaveAttribute('aria-expanded', 'true');

  await page.keyboard.press('ArrowLeft');
  await expect(specs).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(specs).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowRight');
  const firstSpec = await activeRow(page);
  expect(firstSpec).toMatch(/^specs\/[^/]+$/);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => activeRow(page)).toBe('specs');

  await page.keyboard.press('End');
  await expect.poll(() => activeRow(page)).toBe('health.yaml');
  await page.keyboard.press('Home');
  await expect.poll(() => activeRow(page)).toBe('specs');
  await page.keyboard.type('han');
  await expect.poll(() => activeRow(page)).toBe('handlers');
  await expect(page.getByRole('treeitem', { name: 'handlers', exact: true })).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', firstSpec!);
  await expect(page.locator('.tree')).toBeFocused();
  await screenshot(page, 'keyboard-explorer');
});

test('F2 renames and Delete deletes the selected file from the keyboard', async ({ page }) => {
  fs.writeFileSync(onDisk('handlers/e2e-kbd-a.md'), 'notes\n');
  await page.goto(url());
  await expect(page.locator('.tree-row[data-path="handlers/e2e-kbd-a.md"]')).toBeVisible({ timeout: 90_000 });
  await tabTo(page, '.tree');
  await page.keyboard.type('e2e-kbd-a');
  await expect.poll(() => activeRow(page)).toBe('handlers/e2e-kbd-a.md');

  await page.keyboard.press('F2');
  const name = page.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('e2e-kbd-b.md');
  await page.keyboard.press('Enter');
  await expect.poll(() => fs.existsSync(onDisk('handlers/e2e-kbd-b.md'))).toBe(true);
  expect(fs.existsSync(onDisk('handlers/e2e-kbd-a.md'))).toBe(false);
  await expect.poll(() => activeRow(page)).toBe('handlers/e2e-kbd-b.md');
  await expect(page.locator('.tree')).toBeFocused();

  // Deleted at once, no confirm(): the status bar offers Undo, which puts the file back with its text.
  await page.keyboard.press('Delete');
  await expect.poll(() => fs.existsSync(onDisk('handlers/e2e-kbd-b.md'))).toBe(false);
  await expect(page.locator('.tree-row[data-path="handlers/e2e-kbd-b.md"]')).toHaveCount(0);
  const undo = page.locator('.statusbar').getByRole('button', { name: 'Undo' });
  await undo.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => fs.existsSync(onDisk('handlers/e2e-kbd-b.md'))).toBe(true);
  expect(fs.readFileSync(onDisk('handlers/e2e-kbd-b.md'), 'utf8')).toBe('notes\n');
  await expect(page.locator('.tree-row[data-path="handlers/e2e-kbd-b.md"]')).toBeVisible();
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', 'handlers/e2e-kbd-b.md');
});

test('Ctrl+P opens a file by fuzzy name among 200 more; Esc closes without opening', async ({ page }) => {
  const folder = onDisk('handlers/e2e-kbd-many');
  fs.mkdirSync(folder, { recursive: true });
  for (let i = 0; i < 200; i++)
    fs.writeFileSync(path.join(folder, `api-${String(i).padStart(3, '0')}.openapi.yaml`), `# spec ${i}\n`);
  await page.goto(url());
  await expect(page.locator('.tree-row[data-path="specs"]')).toBeVisible({ timeout: 90_000 });
  await tabTo(page, '.tree');

  await page.keyboard.press('ControlOrMeta+P');
  const input = page.getByRole('combobox', { name: 'Go to file' });
  await expect(input).toBeFocused();
  await page.keyboard.type('nothing-like-this-q');
  await expect(page.locator('.picker-note')).toHaveText('No file matches');
  await page.keyboard.press('Escape');
  await expect(input).toHaveCount(0);
  await expect(page.locator('.tree')).toBeFocused();

  // Ctrl+P to the file open in its tab, the picker's work included (the 200 files listed above).
  const started = Date.now();
  await page.keyboard.press('ControlOrMeta+P');
  await page.keyboard.type('many api137');
  await expect(page.locator('#picker-list').getByRole('option').first()).toContainText('api-137.openapi.yaml');
  await page.keyboard.press('Enter');
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', 'handlers/e2e-kbd-many/api-137.openapi.yaml');
  console.log(`Ctrl+P to file open (202+ files, keys typed by Playwright): ${Date.now() - started} ms`);
  await expect(page.locator('.editor-host .monaco-editor .view-lines')).toContainText('# spec 137');
  fs.rmSync(folder, { recursive: true, force: true });
});

test('the command palette (Ctrl+Shift+P, F1) lists every action with its keys and runs one', async ({ page }) => {
  await page.goto(url());
  await expect(page.locator('.tree-row[data-path="specs"]')).toBeVisible({ timeout: 90_000 });
  await page.keyboard.press('F1');
  const input = page.getByRole('combobox', { name: 'Command palette' });
  await expect(input).toBeFocused();
  // Every action of the one table but the palette itself.
  await expect(page.getByRole('option', { name: /Show or hide the explorer/ })).toContainText('Ctrl+B');
  await expect(page.getByRole('option', { name: /Go to a file/ })).toContainText('Ctrl+P');
  await page.keyboard.type('hide explorer');
  await expect(page.locator('#picker-list').getByRole('option').first()).toContainText('Show or hide the explorer');
  await page.keyboard.press('Enter');
  await expect(input).toHaveCount(0);
  await expect(page.locator('.explorer-pane')).toHaveCount(0);

  await page.keyboard.press('ControlOrMeta+Shift+P');
  await page.keyboard.type('explorer');
  await page.keyboard.press('Enter');
  await expect(page.locator('.explorer-pane')).toBeVisible();
});

test('Ctrl+Shift+F searches the files and opens a match at its line', async ({ page }) => {
  fs.writeFileSync(onDisk('handlers/e2e-kbd-search.md'), 'one\ntwo\nthree has the Zebra-Needle here\n');
  await page.goto(url());
  await expect(page.locator('.tree-row[data-path="specs"]')).toBeVisible({ timeout: 90_000 });
  await page.keyboard.press('ControlOrMeta+Shift+F');
  const input = page.getByRole('combobox', { name: 'Search in files' });
  await expect(input).toBeFocused();
  await page.keyboard.type('zebra-needle');
  const match = page.locator('#picker-list').getByRole('option').first();
  await expect(match).toContainText('three has the Zebra-Needle here');
  await expect(match).toContainText('e2e-kbd-search.md:3');
  await page.keyboard.press('Enter');
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', 'handlers/e2e-kbd-search.md');
  await expect(page.locator('.editor-host .monaco-editor .view-lines')).toContainText('three has the Zebra-Needle');

  await page.keyboard.press('ControlOrMeta+Shift+F');
  await page.keyboard.type('x'.repeat(201));
  await expect(page.locator('.picker-note')).toContainText('1 to 200 characters');
  await screenshot(page, 'keyboard-search');
});
