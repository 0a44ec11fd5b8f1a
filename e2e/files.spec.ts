import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './screenshots.js';

// Files can never be lost: changes on disk reach open editors, stale saves are refused, unsaved work
// survives a reload of the page. Each test has its own file in handlers/ (which the gateway ignores
// unless it is a *_handler.ts) and its own browser context (so its own localStorage).

const url = () => process.env.WORKBENCH_URL!;
const workspace = () => process.env.WORKBENCH_WORKSPACE!;

test.describe.configure({ mode: 'serial' });

function onDisk(workspacePath: string): string {
  return path.join(workspace(), workspacePath);
}

function editorLines(page: Page) {
  return page.locator('.editor-host .monaco-editor .view-lines').first();
}

/** Writes a file as another program would, and opens it in the workbench. */
async function openNewFile(page: Page, name: string, content: string): Promise<string> {
  const workspacePath = `handlers/${name}`;
  fs.writeFileSync(onDisk(workspacePath), content);
  await page.goto(url());
  await page.locator(`.tree-row[data-path="${workspacePath}"]`).click();
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', workspacePath);
  await expect(editorLines(page)).toContainText(content.split('\n')[0]);
  return workspacePath;
}

/** Types `text` at the start of the active editor. */
async function typeAtStart(page: Page, text: string): Promise<void> {
  await editorLines(page).click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.type(text);
  await expect(page.locator('.tab.active.dirty')).toBeVisible();
}

test.afterAll(() => {
  for (const name of fs.readdirSync(onDisk('handlers')))
    if (name.startsWith('e2e-files-')) fs.rmSync(onDisk(`handlers/${name}`), { force: true });
});

test('an open file without unsaved changes follows an edit made on disk', async ({ page }) => {
  const file = await openNewFile(page, 'e2e-files-clean.md', 'first version\n');
  fs.writeFileSync(onDisk(file), 'second version, written by another editor\n');
  await expect(editorLines(page)).toContainText('second version, written by another editor');
  await expect(editorLines(page)).not.toContainText('first version');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
  await expect(page.locator('.disk-conflict')).toHaveCount(0);
});

test('an edit on disk under unsaved changes offers compare, keep mine and take disk', async ({ page }) => {
  const file = await openNewFile(page, 'e2e-files-dirty.md', 'shared line\n');
  await typeAtStart(page, 'mine ');
  fs.writeFileSync(onDisk(file), 'theirs: shared line\n');

  const banner = page.locator('.disk-conflict');
  await expect(banner).toContainText(`${file} changed on disk, and this editor has unsaved changes`);
  await expect(editorLines(page)).toContainText('mine shared line');

  // Leaving the compare view throws nothing (Monaco's diff widget let go of its models before they went).
  const thrown: string[] = [];
  page.on('pageerror', (error) => thrown.push(error.message));
  await banner.getByRole('button', { name: 'Compare' }).click();
  const diff = page.locator('.monaco-diff-editor');
  // An inline diff (a narrow window) draws the deleted lines as a second `.view-lines` inside the modified editor.
  const textOf = (side: string) => diff.locator(`.editor.${side} .view-lines:not(.line-delete)`);
  await expect(textOf('original')).toContainText('theirs: shared line');
  await expect(textOf('modified')).toContainText('mine shared line');
  await screenshot(page, 'files-compare');
  await banner.getByRole('button', { name: 'Close compare' }).click();
  await expect(diff).toHaveCount(0);
  await expect(editorLines(page)).toContainText('mine shared line');
  // Opened again, it shows the texts afresh rather than models kept from before.
  await typeAtStart(page, 'more ');
  await banner.getByRole('button', { name: 'Compare' }).click();
  await expect(textOf('modified')).toContainText('more mine shared line');
  await expect(textOf('original')).toContainText('theirs: shared line');

  // Keep mine: the editor's text stays, unsaved, and a save now replaces the disk's version.
  await banner.getByRole('button', { name: 'Keep mine' }).click();
  await expect(banner).toHaveCount(0);
  await expect(diff).toHaveCount(0);
  expect(thrown).toEqual([]);
  await expect(page.locator('.tab.active.dirty')).toBeVisible();
  await editorLines(page).click();
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
  expect(fs.readFileSync(onDisk(file), 'utf8')).toBe('more mine shared line\n');

  // Take disk: the editor's unsaved text gives way to the disk's.
  await typeAtStart(page, 'again ');
  fs.writeFileSync(onDisk(file), 'from disk, third time\n');
  await banner.getByRole('button', { name: 'Take disk' }).click();
  await expect(editorLines(page)).toContainText('from disk, third time');
  await expect(editorLines(page)).not.toContainText('again');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
  expect(fs.readFileSync(onDisk(file), 'utf8')).toBe('from disk, third time\n');
});

test('a reload of the page asks first, then restores unsaved changes', async ({ page }) => {
  const file = await openNewFile(page, 'e2e-files-reload.md', 'saved text\n');
  await typeAtStart(page, 'unsaved ');
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(dialogs).toEqual(['beforeunload']);

  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', file);
  await expect(editorLines(page)).toContainText('unsaved saved text');
  await expect(page.locator('.tab.active.dirty')).toBeVisible();
  await expect(page.locator('.disk-restored')).toContainText('Unsaved changes from your last session were restored');
  await screenshot(page, 'files-restored');
  expect(fs.readFileSync(onDisk(file), 'utf8')).toBe('saved text\n');

  await editorLines(page).click();
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
  await expect(page.locator('.disk-restored')).toHaveCount(0);
  expect(fs.readFileSync(onDisk(file), 'utf8')).toBe('unsaved saved text\n');
});

test('a save based on a version that changed on disk is refused, and the disk version is kept', async ({ page }) => {
  // No event stream: the change on disk stays unannounced, as while the connection is down.
  await page.route('**/api/workbench/events**', (route) => route.abort());
  const file = await openNewFile(page, 'e2e-files-stale.md', 'as read\n');
  await typeAtStart(page, 'mine ');
  fs.writeFileSync(onDisk(file), 'written meanwhile\n');

  await editorLines(page).click();
  await page.keyboard.press('ControlOrMeta+S');
  const banner = page.locator('.disk-conflict');
  await expect(banner).toContainText(`Not saved: ${file} changed on disk since you opened it`);
  expect(fs.readFileSync(onDisk(file), 'utf8')).toBe('written meanwhile\n');
  await expect(editorLines(page)).toContainText('mine as read');
  await expect(page.locator('.tab.active.dirty')).toBeVisible();
  await screenshot(page, 'files-stale-save');

  await banner.getByRole('button', { name: 'Take disk' }).click();
  await expect(editorLines(page)).toContainText('written meanwhile');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
});
