import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { editor, replaceEditorText } from './editor-text.js';
import { screenshot } from './screenshots.js';
import { appearedAfter, loadToEditable, measure, recordAppearance, timedRuns } from './timing.js';

const url = () => process.env.WORKBENCH_URL!;
const workspace = () => process.env.WORKBENCH_WORKSPACE!;

const petsSpec = `openapi: 3.0.3
info:
  title: E2E pets
  version: 1.0.0
servers:
  - url: /api/adaptive/e2e-pets
paths:
  /pets:
    get:
      summary: List pets made in the e2e test
      responses:
        '200':
          description: The pets
          content:
            application/json:
              example:
                pets:
                  - name: Rex-from-e2e
`;

const brokenSpec = `${petsSpec}  /broken: [unclosed
`;

test.describe.configure({ mode: 'serial' });

function treeItem(page: Page, workspacePath: string) {
  return page.locator(`.tree-row[data-path="${workspacePath}"]`);
}

/**
 * The WCAG 2 contrast ratio of an element's text as the page shows it: its colour over the background
 * under it (the ancestors' backgrounds blended), both passed through the CSS filters of the element and its
 * ancestors (dark mode inverts the API docs), innermost first, by Chromium's own filters on a canvas.
 */
function shownContrast(element: Locator): Promise<number> {
  return element.evaluate((target) => {
    const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
    const over = (top: number[], bottom: number[]) =>
      bottom.map((c, i) => top[i] * (top[3] ?? 1) + c * (1 - (top[3] ?? 1)));
    const chain: Element[] = [];
    for (let e: Element | null = target; e; e = e.parentElement) chain.unshift(e);
    let background = [255, 255, 255];
    const filters: string[] = [];
    for (const e of chain) {
      const style = getComputedStyle(e);
      background = over(channels(style.backgroundColor), background);
      if (style.filter !== 'none') filters.unshift(style.filter);
    }
    const text = over(channels(getComputedStyle(target).color), background);
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const shown = (rgb: number[]) =>
      filters.reduce((colour, filter) => {
        context.filter = filter;
        context.clearRect(0, 0, 1, 1);
        context.fillStyle = `rgb(${colour.join(',')})`;
        context.fillRect(0, 0, 1, 1);
        return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      }, rgb);
    const linear = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    const luminance = ([r, g, b]: number[]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    const [lighter, darker] = [luminance(shown(text)), luminance(shown(background))].sort((a, b) => b - a);
    return (lighter + 0.05) / (darker + 0.05);
  });
}

async function showPanel(page: Page, id: string): Promise<void> {
  await page.locator(`.panel-tab[data-panel="${id}"]`).click();
  await expect(page.locator(`[data-panel-body="${id}"]`)).toBeVisible();
}

test('opens the workspace to an editable editor and remembers open tabs', async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  await loadToEditable(page, url());

  // The token left the address bar; the page keeps it for this tab.
  expect(page.url()).not.toContain('token=');
  await screenshot(page, '01-explorer-editor');
  await page.keyboard.press('Backspace');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);

  await page.reload();
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', 'specs/library-api.openapi.yaml');
  await expect(editor(page).locator('.view-lines')).toContainText('openapi: 3.0.3');
  expect(consoleErrors.filter((e) => /Content Security Policy|Failed to load/.test(e))).toEqual([]);
});

test('creates a spec, saves it, shows its route in the API docs and calls it with Try it out', async ({ page }) => {
  await page.goto(url());
  // New files go into the folder of the selected file.
  await treeItem(page, 'specs/library-api.openapi.yaml').click();
  await page.getByRole('button', { name: 'New file' }).click();
  const name = page.getByRole('textbox', { name: 'Name' });
  await expect(name).toBeFocused();
  await screenshot(page, '02-explorer-new-file');
  await name.fill('e2e-pets.openapi.yaml');
  await name.press('Enter');
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', 'specs/e2e-pets.openapi.yaml');
  await expect(editor(page).locator('.view-lines')).toContainText('openapi: 3.0.3');

  const docs = page.locator('.swagger-host');
  await expect(docs.locator('.opblock-summary-path[data-path="/library-api/books"]').first()).toBeVisible();
  // Each timed save adds a route of its own; the last save is the pets spec itself.
  const saves: number[] = [];
  for (let run = 1; run <= timedRuns + 1; run++) {
    const route = run <= timedRuns ? `/pets-${run}` : '/pets';
    await replaceEditorText(page, petsSpec.replace('  /pets:', `  ${route}:`));
    await expect(page.locator('.tab.active.dirty')).toBeVisible();
    const newRoute = `.swagger-host .opblock-summary-path[data-path="/e2e-pets${route}"]`;
    await page.evaluate(recordAppearance, [newRoute]);
    await page.keyboard.press('ControlOrMeta+S');
    await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
    await expect(page.locator(newRoute)).toBeVisible();
    if (run <= timedRuns) saves.push(await appearedAfter(page, newRoute));
  }
  measure('save to new route in the API docs', saves);
  const operation = docs.locator('.opblock-summary-path[data-path="/e2e-pets/pets"]');
  expect(fs.readFileSync(path.join(workspace(), 'specs/e2e-pets.openapi.yaml'), 'utf8')).toBe(petsSpec);

  await operation.click();
  const block = docs.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/e2e-pets/pets"]') });
  await block.getByRole('button', { name: 'Try it out' }).click();
  await block.getByRole('button', { name: 'Execute' }).click();
  const response = block.locator('.live-responses-table');
  await expect(response.locator('tr.response td.response-col_status')).toContainText('200');
  await expect(response).toContainText('Rex-from-e2e');
  await response.scrollIntoViewIfNeeded();
  await screenshot(page, '03-api-docs-try-it-out');
});

test('marks a YAML error in the editor and lists it in the problems panel', async ({ page }) => {
  await page.goto(url());
  await treeItem(page, 'specs/e2e-pets.openapi.yaml').click();
  await expect(editor(page).locator('.view-lines')).toContainText('E2E pets');
  await replaceEditorText(page, brokenSpec);
  // The editor's own YAML check marks the fault before anything is saved.
  await expect(editor(page).locator('.squiggly-error').first()).toBeVisible();
  await page.keyboard.press('ControlOrMeta+S');
  await showPanel(page, 'problems');
  const problem = page
    .locator('[data-panel-body="problems"] tr.problem', { hasText: 'specs/e2e-pets.openapi.yaml:' })
    .filter({ hasText: 'server' });
  await expect(problem.first()).toBeVisible();
  // The fault once, though both the editor's YAML check and the server report it.
  await expect(
    page.locator('[data-panel-body="problems"] tr.problem', { hasText: 'sufficiently indented' }),
  ).toHaveCount(1);
  await expect(page.locator('.statusbar')).toContainText(/[1-9]\d* errors?/);
  await screenshot(page, '04-problems');

  // Clicking a problem puts the cursor on it; fixing the file clears it.
  await problem.first().click();
  await replaceEditorText(page, petsSpec);
  await page.keyboard.press('ControlOrMeta+S');
  await expect(
    page.locator('[data-panel-body="problems"] tr.problem', { hasText: 'e2e-pets' }).filter({ hasText: 'server' }),
  ).toHaveCount(0);
});

test('marks a $ref that points at nothing while typing, and the server refuses it at its line on save', async ({
  page,
}) => {
  const brokenRef = `${petsSpec}  /pet:
    get:
      responses:
        '200':
          description: One pet
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pett'
components:
  schemas:
    Pet: {type: object}
`;
  await page.goto(url());
  await treeItem(page, 'specs/e2e-pets.openapi.yaml').click();
  await expect(editor(page).locator('.view-lines')).toContainText('E2E pets');
  await replaceEditorText(page, brokenRef);
  await showPanel(page, 'problems');
  const rows = page.locator('[data-panel-body="problems"] tr.problem', { hasText: 'does not resolve' });
  // The editor's check, before anything is saved: on the line of the $ref.
  await expect(rows.filter({ hasText: 'openapi' }).filter({ hasText: 'specs/e2e-pets.openapi.yaml:27' })).toBeVisible();
  await expect(editor(page).locator('.squiggly-error').first()).toBeVisible();
  await page.keyboard.press('ControlOrMeta+S');
  await expect(rows.filter({ hasText: 'server' }).filter({ hasText: 'specs/e2e-pets.openapi.yaml:27' })).toBeVisible();
  // The last good version keeps serving.
  const served = await page.request.get(new URL('/api/adaptive/e2e-pets/pets', url()).href);
  expect(served.status()).toBe(200);

  await replaceEditorText(page, petsSpec);
  await page.keyboard.press('ControlOrMeta+S');
  await expect(rows).toHaveCount(0);
});

test('a save with schema errors lists each at its line, keeps the last good version and says so in the docs', async ({
  page,
}) => {
  // Two OpenAPI schema errors: a response schema's type, and a property's type.
  const schemaErrors = `${petsSpec}  /pet:
    get:
      responses:
        '200':
          description: One pet
          content:
            application/json:
              schema:
                type: strnig
  /owners:
    get:
      responses:
        '200':
          description: The owners
          content:
            application/json:
              schema:
                type: object
                properties:
                  name: {type: integr}
`;
  const lineOf = (part: string) => schemaErrors.split('\n').findIndex((line) => line.includes(part)) + 1;
  await page.goto(url());
  await treeItem(page, 'specs/e2e-pets.openapi.yaml').click();
  await expect(editor(page).locator('.view-lines')).toContainText('E2E pets');
  await replaceEditorText(page, schemaErrors);
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);

  const banner = page.locator('.api-docs .last-good');
  await expect(banner).toContainText(
    /specs\/e2e-pets\.openapi\.yaml has errors; serving its last good version \(saved \d\d:\d\d\)/,
  );
  await banner.getByRole('button', { name: 'Show problems' }).click();
  const serverRows = page
    .locator('[data-panel-body="problems"] tr.problem', { hasText: 'specs/e2e-pets.openapi.yaml:' })
    .filter({ hasText: 'server' });
  await expect(serverRows).toHaveCount(2);
  await expect(serverRows.filter({ hasText: `specs/e2e-pets.openapi.yaml:${lineOf('strnig')}:` })).toContainText(
    'GET /pet',
  );
  await expect(serverRows.filter({ hasText: `specs/e2e-pets.openapi.yaml:${lineOf('integr')}:` })).toContainText(
    'GET /owners',
  );
  // The last good version serves, and the docs show it: no /pet, no /owners.
  const served = await page.request.get(new URL('/api/adaptive/e2e-pets/pets', url()).href);
  expect(served.status()).toBe(200);
  const docs = page.locator('.swagger-host');
  await expect(docs.locator('.opblock-summary-path[data-path="/e2e-pets/pets"]')).toBeVisible();
  await expect(docs.locator('.opblock-summary-path[data-path="/e2e-pets/pet"]')).toHaveCount(0);
  await screenshot(page, '04b-docs-last-good-version');

  // The picker shows one mount's own document, and all of them again.
  const picker = page.getByRole('combobox', { name: 'API document' });
  await picker.selectOption('e2e-pets');
  await expect(docs).toHaveAttribute('data-document', '/api/adaptive/openapi.json?mount=e2e-pets');
  await expect(docs.locator('.opblock-summary-path[data-path="/library-api/books"]')).toHaveCount(0);
  await expect(docs.locator('.opblock-summary-path[data-path="/e2e-pets/pets"]')).toBeVisible();
  await screenshot(page, '04c-docs-one-spec');
  await picker.selectOption('');
  await expect(docs.locator('.opblock-summary-path[data-path="/library-api/books"]').first()).toBeVisible();

  await replaceEditorText(page, petsSpec);
  await page.keyboard.press('ControlOrMeta+S');
  await expect(banner).toHaveCount(0);
  await expect(serverRows).toHaveCount(0);
});

test('edits the library handler with SDK typings, and the change shows in a request and the inspector', async ({
  page,
}) => {
  const handlerPath = 'handlers/library_api_handler.ts';
  const original = fs.readFileSync(path.join(workspace(), handlerPath), 'utf8');
  // Only the value: the handler's layout is Prettier's.
  const changed = original.replace('total_books: books.length,', 'total_books: books.length + 1000,');
  expect(changed).not.toBe(original);

  await page.goto(url());
  await treeItem(page, handlerPath).click();
  await expect(editor(page).locator('.view-lines')).toContainText('adaptive-workbench/handler');

  // The SDK's typings are loaded: `t.String()` is a TString, so assigning it to a number is an error.
  await replaceEditorText(page, `${original}\nexport const typed: number = t.String();\n`);
  await showPanel(page, 'problems');
  await expect(page.locator('[data-panel-body="problems"] tr.problem', { hasText: 'TString' })).toBeVisible({
    timeout: 30_000,
  });

  await replaceEditorText(page, changed);
  await expect(page.locator('[data-panel-body="problems"] tr.problem', { hasText: 'TString' })).toHaveCount(0, {
    timeout: 30_000,
  });
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);

  await showPanel(page, 'logs');
  await expect(page.locator('.logs')).toContainText(/Loaded \d+ specs? and \d+ handlers?/);
  await screenshot(page, '05-logs');

  // The reload after the save serves the new handler.
  const totalBooks = () =>
    page.evaluate(
      async () =>
        ((await (await fetch('/api/adaptive/library-api/stats')).json()) as { total_books: number }).total_books,
    );
  await expect.poll(totalBooks, { timeout: 15_000 }).toBeGreaterThanOrEqual(1000);

  await showPanel(page, 'requests');
  const row = page.locator('table.requests tbody tr', { hasText: '/library-api/stats' }).first();
  await row.click();
  const inspector = page.getByLabel('Request inspector');
  await expect(inspector).toContainText('handler');
  await expect(inspector).toContainText('library_api_handler.ts');
  await expect(inspector.getByLabel('Response body')).toContainText(/"total_books": 10\d\d/);
  await screenshot(page, '06-requests-inspector');
});

test('runs the shell from the keyboard and the title bar: files, tabs, panes, panels and the help', async ({
  page,
}) => {
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(url());
  const activeTab = page.locator('.tab.active');

  // Alt+N asks for a name in the selected file's folder; the new file opens in a tab.
  await treeItem(page, 'specs/library-api.openapi.yaml').click();
  await page.keyboard.press('Alt+KeyN');
  const name = page.getByRole('textbox', { name: 'Name' });
  await name.fill('e2e-shell.openapi.yaml');
  await name.press('Enter');
  await expect(activeTab).toHaveAttribute('data-path', 'specs/e2e-shell.openapi.yaml');
  await expect(page.locator('.tabs .tab')).toHaveCount(2);
  await page.keyboard.press('Alt+PageDown');
  await expect(activeTab).toHaveAttribute('data-path', 'specs/library-api.openapi.yaml');
  await page.keyboard.press('Alt+PageUp');
  await expect(activeTab).toHaveAttribute('data-path', 'specs/e2e-shell.openapi.yaml');

  // F2 renames the selected file, and its tab follows; Delete removes both (after the confirmation).
  await treeItem(page, 'specs/e2e-shell.openapi.yaml').click();
  await page.keyboard.press('F2');
  await name.fill('e2e-shell-renamed.openapi.yaml');
  await name.press('Enter');
  await expect(treeItem(page, 'specs/e2e-shell-renamed.openapi.yaml')).toBeVisible();
  await expect(activeTab).toHaveAttribute('data-path', 'specs/e2e-shell-renamed.openapi.yaml');
  await treeItem(page, 'specs/e2e-shell-renamed.openapi.yaml').click();
  await page.keyboard.press('Delete');
  await expect(treeItem(page, 'specs/e2e-shell-renamed.openapi.yaml')).toHaveCount(0);
  await expect(page.locator('.tabs .tab')).toHaveCount(1);
  expect(fs.existsSync(path.join(workspace(), 'specs/e2e-shell-renamed.openapi.yaml'))).toBe(false);
  await page.keyboard.press('Alt+KeyW');
  await expect(page.locator('.tabs .tab')).toHaveCount(0);

  // A new file's name field selects only the part to replace: a typed name keeps `_handler.ts`, and a whole
  // name typed over the selection does not end up with its ending twice.
  await treeItem(page, 'handlers/library_api_handler.ts').click();
  await page.keyboard.press('Alt+KeyN');
  await expect(name).toHaveValue('new_api_handler.ts');
  await page.keyboard.type('e2e_typed');
  await name.press('Enter');
  await expect(activeTab).toHaveAttribute('data-path', 'handlers/e2e_typed_handler.ts');
  await treeItem(page, 'specs/library-api.openapi.yaml').click();
  await page.keyboard.press('Alt+KeyN');
  await page.keyboard.type('e2e-typed.openapi.yaml');
  await name.press('Enter');
  await expect(activeTab).toHaveAttribute('data-path', 'specs/e2e-typed.openapi.yaml');
  for (const file of ['handlers/e2e_typed_handler.ts', 'specs/e2e-typed.openapi.yaml']) {
    await treeItem(page, file).click();
    await page.keyboard.press('Delete');
    await expect(treeItem(page, file)).toHaveCount(0);
  }

  // A pane hides by its shortcut and shows again by its title bar button, which names the same keys.
  await page.keyboard.press('Control+KeyB');
  await expect(page.locator('.explorer-pane')).toHaveCount(0);
  const explorerButton = page.locator('.titlebar button', { hasText: 'Explorer' });
  await expect(explorerButton).toHaveAttribute('title', 'Explorer (Ctrl+B)');
  await explorerButton.click();
  await expect(page.locator('.explorer-pane')).toBeVisible();
  await expect(explorerButton).toHaveClass(/\bon\b/);

  // Alt+<n> shows the n-th panel; the status bar's counts show the problems.
  await page.keyboard.press('Alt+Digit3');
  await expect(page.locator('[data-panel-body="logs"]')).toBeVisible();
  await page.locator('.statusbar .status-problems').click();
  // With no problems the region keeps only its tab row, the Problems tab selected.
  await expect(page.locator('.panel-tab[data-panel="problems"]')).toHaveAttribute('aria-selected', 'true');

  // Alt+H opens and closes the help, which lists the shortcuts with the keys of this platform.
  await page.keyboard.press('Alt+KeyH');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.locator('tr', { hasText: 'Save the active file' })).toContainText('Ctrl+S');
  await expect(help).toContainText('Rename the selected file (explorer)');
  await page.keyboard.press('Alt+KeyH');
  await expect(help).toHaveCount(0);
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await help.getByRole('button', { name: 'Close' }).click();
  await expect(help).toHaveCount(0);
  // Esc closes it too, and the focus goes back to the button that opened it.
  const helpButton = page.getByRole('button', { name: 'Keyboard shortcuts' });
  await helpButton.click();
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(helpButton).toBeFocused();
});

test('a panel whose module cannot load says why in its place, and the rest of the workbench goes on', async ({
  page,
}) => {
  // As when the server is away at the moment the panel is first shown.
  await page.route('**/assets/HealthPanel-*.js', (route) => route.abort('connectionrefused'));
  await page.goto(url());
  await showPanel(page, 'health');
  const failed = page.locator('[data-panel-body="health"] .load-failed');
  await expect(failed).toContainText('Cannot show Health:');
  await expect(failed.getByRole('button', { name: 'Reload page' })).toBeVisible();
  // The other panels, the explorer and the editor are untouched.
  await showPanel(page, 'docs');
  await expect(
    page.locator('.swagger-host .opblock-summary-path[data-path="/library-api/books"]').first(),
  ).toBeVisible();
  await treeItem(page, 'specs/library-api.openapi.yaml').click();
  await expect(editor(page).locator('.view-lines')).toContainText('openapi: 3.0.3');
  await page.unroute('**/assets/HealthPanel-*.js');
  await showPanel(page, 'health');
  await failed.getByRole('button', { name: 'Reload page' }).click();
  await showPanel(page, 'health');
  await expect(page.locator('[data-panel-body="health"] .health-tree')).toBeVisible();
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('follows the system colour scheme', async ({ page }) => {
    await page.goto(url());
    await treeItem(page, 'specs/library-api.openapi.yaml').click();
    await expect(editor(page).locator('.view-lines')).toContainText('openapi: 3.0.3');
    await expect(page.locator('.app.dark')).toBeVisible();
    await expect(editor(page)).toHaveClass(/vs-dark/);
    await expect(page.locator('.swagger-host .opblock').first()).toBeVisible();
    // An expanded operation's header, and every method badge, read at WCAG AA (4.5:1) as dark mode shows them.
    await page.locator('.swagger-host .opblock-summary').first().click();
    const header = page.locator('.swagger-host .opblock.is-open .opblock-summary');
    for (const part of ['.opblock-summary-path', '.opblock-summary-description'])
      expect(await shownContrast(header.locator(part)), part).toBeGreaterThanOrEqual(4.5);
    for (const badge of await page.locator('.swagger-host .opblock-summary-method').all())
      expect(await shownContrast(badge), (await badge.textContent()) ?? undefined).toBeGreaterThanOrEqual(4.5);
    await screenshot(page, '07-dark-theme');
    // Text on a filled tone (the health badges) reads at WCAG AA too: dark mode's tones are light fills.
    await showPanel(page, 'health');
    await expect(page.locator('.health-badge').first()).toBeVisible();
    for (const badge of await page.locator('.health-badge').all())
      expect(await shownContrast(badge), (await badge.textContent()) ?? undefined).toBeGreaterThanOrEqual(4.5);
  });
});
