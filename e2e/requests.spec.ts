import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './screenshots.js';

const url = () => process.env.WORKBENCH_URL!;
const workspace = () => process.env.WORKBENCH_WORKSPACE!;

// A handler whose route throws from a callback that a package of the workspace's node_modules calls:
// its stack has handler frames, library frames and Node's, in that mix.
const failingHandler = `import { Router } from 'adaptive-workbench/handler';
import { walk } from 'e2e-walker';

function audit(entry: string): never {
  throw new Error(\`audit failed at \${entry}\`);
}

export const router = new Router();
router.get('/explode', {}, () => walk(['a', 'b', 'c'], audit));
router.get('/stuck', {}, () => {
  for (;;);
});
router.post('/entries', {}, () => ({ saved: true }));
`;
const walkerPackage = {
  'package.json': JSON.stringify({ name: 'e2e-walker', version: '1.0.0', type: 'module', main: 'index.js' }),
  'index.js': `export function walk(items, visit) {
  return step(items, 0, visit);
}
function step(items, index, visit) {
  return index === items.length - 1 ? visit(items[index]) : step(items, index + 1, visit);
}
`,
};
const handlerFile = () => path.join(workspace(), 'handlers', 'e2e_ledger_handler.ts');
const walkerDir = () => path.join(workspace(), 'node_modules', 'e2e-walker');

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  fs.mkdirSync(walkerDir(), { recursive: true });
  for (const [name, content] of Object.entries(walkerPackage)) fs.writeFileSync(path.join(walkerDir(), name), content);
  fs.writeFileSync(handlerFile(), failingHandler);
});

test.afterAll(() => {
  fs.rmSync(handlerFile(), { force: true });
  fs.rmSync(path.join(workspace(), 'node_modules'), { recursive: true, force: true });
});

async function showPanel(page: Page, id: string): Promise<void> {
  await page.locator(`.panel-tab[data-panel="${id}"]`).click();
  await expect(page.locator(`[data-panel-body="${id}"]`)).toBeVisible();
}

/** Calls the server from the page; `own` calls carry the workbench token as the workbench's own do. */
async function call(
  page: Page,
  target: string,
  options: { own?: boolean; times?: number; method?: string } = {},
): Promise<number[]> {
  return page.evaluate(
    async ({ target, own, times, method }) => {
      const token = sessionStorage.getItem('adaptive-workbench:token')!;
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) {
        const response = await fetch(target, { method, headers: own ? { 'x-workbench-token': token } : {} });
        statuses.push(response.status);
      }
      return statuses;
    },
    { target, own: options.own ?? false, times: options.times ?? 1, method: options.method ?? 'GET' },
  );
}

const rows = (page: Page, text?: string) =>
  page.locator('table.requests tbody tr', text === undefined ? {} : { hasText: text });

test('hides 50 own calls, filters by status, and opens a handler 500 at its logged stack', async ({ page }) => {
  await page.goto(url());
  await showPanel(page, 'requests');
  // The handler is loaded once its route answers something else than 404.
  await expect
    .poll(async () => (await call(page, '/api/adaptive/e2e-ledger/explode'))[0], { timeout: 30_000 })
    .toBe(500);
  await page.getByRole('button', { name: 'Clear' }).click();

  expect(await call(page, '/api/v1/query/sources', { own: true, times: 50 })).toEqual(Array(50).fill(200));
  expect(await call(page, '/api/adaptive/library-api/books')).toEqual([200]);
  expect(await call(page, '/api/adaptive/library-api/books/999')).toEqual([404]);
  expect(await call(page, '/api/adaptive/e2e-ledger/explode')).toEqual([500]);
  // The health panel's own check, made by the workbench itself.
  await showPanel(page, 'health');
  await expect(page.locator('[data-panel-body="health"]')).toContainText(/UP|DOWN/);

  // Hidden by default: none of the 50 is listed, and the toggle counts them (and any other own call).
  await expect(rows(page, '/api/adaptive/e2e-ledger/explode')).toHaveCount(1);
  await expect(rows(page, '/api/v1/query/sources')).toHaveCount(0);
  await expect(rows(page, '/api/health')).toHaveCount(0);
  const toggle = page.getByLabel(/Show workbench calls/);
  const hidden = Number(/\((\d+) hidden\)/.exec((await page.locator('label', { has: toggle }).innerText()) ?? '')?.[1]);
  expect(hidden).toBeGreaterThanOrEqual(50);
  await expect(rows(page)).toHaveCount(3);
  await screenshot(page, 'requests-own-hidden');

  await toggle.check();
  await expect(rows(page, '/api/v1/query/sources')).toHaveCount(50);
  await expect(rows(page, '/api/v1/query/sources').first().locator('td.origin')).toHaveText('workbench');
  await expect(rows(page, '/api/health').first().locator('td.origin')).toHaveText('workbench');
  // A full path, not cut: the cell shows all of it.
  const pathCell = rows(page, '/api/adaptive/library-api/books/999').locator('td.url');
  await expect(pathCell).toHaveText('/api/adaptive/library-api/books/999');
  await screenshot(page, 'requests-own-shown');
  await toggle.uncheck();

  await page.getByLabel('Status', { exact: true }).selectOption('4xx');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('/api/adaptive/library-api/books/999');
  await screenshot(page, 'requests-filter-4xx');
  await page.getByLabel('Status', { exact: true }).selectOption('5xx');
  const failed = rows(page, '/api/adaptive/e2e-ledger/explode');
  await expect(rows(page)).toHaveCount(1);

  await failed.getByRole('button', { name: /^Log entry of req-/ }).click();
  await expect(page.locator('[data-panel-body="logs"]')).toBeVisible();
  const entry = page.locator('.log-line.revealed');
  await expect(entry).toBeVisible();
  await expect(entry).toBeInViewport();
  await expect(entry).toContainText('handler failed');
  await expect(entry.locator('.stack-error')).toHaveText('Error: audit failed at c');
  // The handler's frames first, the library's folded behind their count.
  const frames = entry.locator('.stack > .stack-frames > li');
  await expect(frames.first()).toContainText('audit (handlers/e2e_ledger_handler.ts:5');
  await expect(frames.nth(1)).toContainText('handlers/e2e_ledger_handler.ts:9');
  const fold = entry.locator('details.stack-fold', { hasText: 'in node_modules' });
  await expect(fold.locator('summary')).toHaveText('4 frames in node_modules');
  await expect(fold.locator('li').first()).toBeHidden();
  await screenshot(page, 'logs-handler-500');
  await fold.locator('summary').click();
  await expect(fold.locator('li').first()).toContainText('node_modules/e2e-walker/index.js');
  await screenshot(page, 'logs-handler-500-unfolded');
});

test('copies a request as curl that runs, replays it, and edits and resends it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(url());
  await showPanel(page, 'requests');
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Status', { exact: true }).selectOption('');
  const created = await page.evaluate(async () => {
    const response = await fetch('/api/adaptive/library-api/books', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-note': 'O\'Brien "Jr"' },
      body: JSON.stringify({ title: 'It\'s "Dune"\nvol. 1 📚', author: 'Frank Herbert' }),
    });
    return response.status;
  });
  expect(created).toBe(201);
  const row = rows(page, '/api/adaptive/library-api/books').first();
  await row.getByRole('button', { name: /^Actions of POST/ }).click();
  await page.getByRole('menuitem', { name: 'Copy as curl' }).click();
  const shown = page.getByLabel('curl command');
  await expect(shown).toContainText("curl -X 'POST'");
  const command = await shown.innerText();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
  expect(command).not.toContain('x-workbench');
  await screenshot(page, 'requests-curl');
  // The command, run by a real shell, creates the same book again.
  const answer = JSON.parse(execFileSync('sh', ['-c', `${command} --silent`], { encoding: 'utf8' })) as {
    title: string;
  };
  expect(answer.title).toBe('It\'s "Dune"\nvol. 1 📚');

  await row.getByRole('button', { name: /^Actions of POST/ }).click();
  await page.getByRole('menuitem', { name: 'Replay' }).click();
  await expect(page.getByLabel('Resent answer', { exact: true })).toContainText('201');
  await expect(page.getByLabel('Resent answer body')).toContainText('Frank Herbert');
  // The replay shows as a try-out of its own.
  await expect(page.locator('table.requests tbody tr td.origin', { hasText: 'try-out' })).toHaveCount(1);

  await row.getByRole('button', { name: /^Actions of POST/ }).click();
  await page.getByRole('menuitem', { name: 'Edit and resend' }).click();
  const form = page.getByRole('form', { name: 'Edit and resend' });
  await form.getByLabel('Method').fill('GET');
  await form.getByLabel('Path').fill('/api/adaptive/library-api/books/424242');
  await form.getByLabel('Body').fill('');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Resent answer', { exact: true })).toContainText('404');
  await screenshot(page, 'requests-resend');
  // Every row has its menu, the resent ones too.
  await expect(rows(page).getByRole('button', { name: /^Actions of/ })).toHaveCount(await rows(page).count());
  // A path to another host is refused with a clear message, and nothing is sent.
  await rows(page, '/api/adaptive/library-api/books')
    .last()
    .getByRole('button', { name: /^Actions of/ })
    .click();
  await page.getByRole('menuitem', { name: 'Edit and resend' }).click();
  await form.getByLabel('Path').fill('//elsewhere.example/x');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Not sent: The path must start with one /')).toBeVisible();
});

test('a stuck handler: its 504 and the 503 of a call it held link to their log lines, durations whole', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(url());
  await showPanel(page, 'requests');
  await page.getByRole('button', { name: 'Clear' }).click();
  // The loop blocks the module past HANDLER_TIMEOUT_MS (10 s): 504. A POST queued behind it is cut off by the
  // restart and answered 503 (a GET would be run again on the new process, and a POST might not be safe to).
  const stuck = call(page, '/api/adaptive/e2e-ledger/stuck');
  await page.waitForTimeout(1000);
  const held = call(page, '/api/adaptive/e2e-ledger/entries', { method: 'POST' });
  expect(await stuck).toEqual([504]);
  expect(await held).toEqual([503]);

  const cases = [
    { path: '/stuck', status: '504', logged: 'Handler did not answer within' },
    { path: '/entries', status: '503', logged: 'is restarting' },
  ];
  for (const { path: route, status, logged } of cases) {
    const row = rows(page, `/api/adaptive/e2e-ledger${route}`);
    await expect(row.locator('.status')).toHaveText(status);
    // Several seconds in whole milliseconds, none of it cut by the column.
    const duration = row.locator('td.duration');
    await expect(duration).toHaveText(/^\d{4,5}$/);
    expect(await duration.evaluate((cell) => cell.scrollWidth <= cell.clientWidth)).toBe(true);
    await row.getByRole('button', { name: /^Log entry of req-/ }).click();
    await expect(page.locator('.log-line.revealed')).toContainText(logged);
    await showPanel(page, 'requests');
  }
  await screenshot(page, 'requests-stuck-handler');
});

test('in a narrow requests panel the status and duration stay in view, the path scrolls', async ({ page }) => {
  await page.setViewportSize({ width: 960, height: 720 });
  await page.goto(url());
  await showPanel(page, 'requests');
  await page.getByRole('button', { name: 'Clear' }).click();
  const route = '/api/adaptive/library-api/no-such-route-with-a-long-path-that-does-not-fit-a-narrow-panel';
  expect(await call(page, route)).toEqual([404]);
  const row = rows(page, route);
  await expect(row.locator('.status')).toHaveText('404');
  const panel = (await page.locator('[data-panel-body="requests"]').boundingBox())!;
  for (const cell of [row.locator('.status'), row.locator('td.duration')]) {
    const box = (await cell.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(panel.x);
    expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width);
  }
  await screenshot(page, 'requests-narrow');
});
