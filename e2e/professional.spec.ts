import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousViolations } from './axe.js';
import { openQueryTab, typeQuery } from './query-tabs.js';
import { screenshot } from './screenshots.js';
import { appearedAfter, measure, recordAppearance, timedRuns } from './timing.js';

// Issue 38, the items left: the axe audit of every view, Swagger's curl, chart labels, result rows, Ctrl+P.

const url = () => process.env.WORKBENCH_URL!;
const onDisk = (workspacePath: string) => path.join(process.env.WORKBENCH_WORKSPACE!, workspacePath);
/** Folders of this run's own (other specs share the server and the workspace). */
const ownFolder = `handlers/e2e-pro-${process.pid}`;
const brokenSpec = `specs/e2e-pro-${process.pid}.openapi.yaml`;

/** A spec that does not parse: the Problems panel lists it, as it lists other specs' problems in the whole suite. */
const writeBrokenSpec = () => fs.writeFileSync(onDisk(brokenSpec), 'openapi: 3.0.3\ninfo: [\n');

test.afterAll(() => {
  for (const own of [ownFolder, brokenSpec]) fs.rmSync(onDisk(own), { recursive: true, force: true });
});

async function showPanel(page: Page, id: string): Promise<void> {
  await page.locator(`.panel-tab[data-panel="${id}"]`).click();
  await expect(page.locator(`[data-panel-body="${id}"]`)).toBeVisible();
}

test('axe finds no serious or critical violation on any view', async ({ page }) => {
  // The views as the rest of the suite leaves them: a problem listed, requests of each status class, one selected.
  writeBrokenSpec();
  const origin = new URL(url()).origin;
  for (const route of ['/api/adaptive/library-api/books', '/api/adaptive/library-api/no-such-route'])
    await fetch(origin + route);
  await page.goto(url());
  await page.locator('.panel-tab[data-panel="problems"]').click();
  await expect(page.locator('[data-panel-body="problems"] tr.problem', { hasText: brokenSpec })).not.toHaveCount(0);
  await page.locator('.tree-row[data-path="specs/library-api.openapi.yaml"]').click();
  await expect(page.locator('.editor-host .monaco-editor .view-lines')).toContainText('openapi');
  await showPanel(page, 'docs');
  await expect(page.locator('.swagger-host .opblock').first()).toBeVisible();
  await expectNoSeriousViolations(page, 'the editor with the API docs');
  for (const [id, view] of [
    ['requests', 'the requests panel'],
    ['problems', 'the problems panel'],
    ['logs', 'the logs panel'],
    ['health', 'the health panel'],
    ['mock', 'the mock panel'],
  ] as const) {
    // An empty panel shows its tab row only (no problems here): the audit takes the view as it is.
    await page.locator(`.panel-tab[data-panel="${id}"]`).click();
    await expect(page.locator(`.panel-tab[data-panel="${id}"]`)).toHaveAttribute('aria-selected', 'true');
    await expectNoSeriousViolations(page, view);
  }

  await openQueryTab(page);
  await typeQuery(page, 'SELECT i, i * 2 AS double_i FROM range(50) t(i)');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByRole('grid', { name: 'Query results' })).toBeVisible();
  await expectNoSeriousViolations(page, 'the SQL console with results');
  await page.getByRole('tab', { name: 'Chart' }).click();
  await expectNoSeriousViolations(page, 'the SQL console with a chart');
  await page.getByRole('tab', { name: 'SPARQL' }).click();
  await expectNoSeriousViolations(page, 'the SPARQL console');
  await page.getByRole('tab', { name: 'Question' }).click();
  await expectNoSeriousViolations(page, 'the question view');
});

test("Swagger UI's curl leaves out the workbench's try-out header, and Execute still calls the route", async ({
  page,
}) => {
  await page.goto(url());
  await showPanel(page, 'docs');
  const docs = page.locator('.swagger-host');
  const path = '/library-api/books';
  const block = docs
    .locator('.opblock-get', { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
    .first();
  await block.locator('.opblock-summary').click();
  await block.getByRole('button', { name: 'Try it out' }).click();
  const call = page.waitForRequest((r) => r.url().endsWith(path) && r.method() === 'GET');
  await block.getByRole('button', { name: 'Execute' }).click();
  // The call itself carries the mark (the requests panel's "try-out" origin); the command shown does not.
  expect((await call).headers()['x-workbench-try-out']).toBe('swagger-ui');
  await expect(block.locator('.live-responses-table tr.response td.response-col_status')).toHaveText(/\d{3}/);
  const curl = block.locator('.curl-command');
  await expect(curl).toContainText(`curl -X 'GET'`);
  await expect(curl).toContainText(path);
  await expect(curl).not.toContainText('x-workbench-try-out');
});

test('the chart of a question labels its axes at 11 px or more on screen', async ({ page }) => {
  await openQueryTab(page);
  await page.getByRole('tab', { name: 'Question' }).click();
  await page.getByLabel('Question').fill('total order amount by region');
  await page.getByLabel('Question').press('ControlOrMeta+Enter');
  const chart = page.locator('.query-chart svg');
  await expect(chart).toBeVisible();
  await expect(chart.locator('text.chart-tick').first()).toBeVisible();
  const sizes = await chart.evaluate((svg: SVGSVGElement) => {
    const scale = svg.getScreenCTM()!.a;
    return Array.from(svg.querySelectorAll('text.chart-tick')).map(
      (t) => parseFloat(getComputedStyle(t).fontSize) * scale,
    );
  });
  console.log(`[measure] chart label size in the question view: ${Math.min(...sizes).toFixed(1)} px`);
  // Sums of about 100,000 read as 78.3K, not 7.8e+4.
  expect(await chart.locator('text.chart-tick').allTextContents()).toContainEqual(
    expect.stringMatching(/^\d+(\.\d)?K$/),
  );
  // Within a twentieth of a pixel: the browser rounds the box the scale is read from.
  expect(Math.min(...sizes)).toBeGreaterThanOrEqual(10.95);
  await screenshot(page, 'question-chart-labels');
});

test('Ctrl+P to a file open among 200 specs', async ({ page }) => {
  fs.mkdirSync(onDisk(ownFolder), { recursive: true });
  for (let i = 0; i < 200; i++)
    fs.writeFileSync(
      onDisk(`${ownFolder}/api-${String(i).padStart(3, '0')}.openapi.yaml`),
      `openapi: 3.0.3\ninfo: {title: spec ${i}, version: '1'}\npaths: {}\n`,
    );
  await page.goto(url());
  await expect(page.locator(`.tree-row[data-path="${ownFolder}"]`)).toBeVisible({ timeout: 90_000 });
  const runs: number[] = [];
  for (let run = 0; run < timedRuns; run++) {
    const file = `${ownFolder}/api-${String(100 + run).padStart(3, '0')}.openapi.yaml`;
    const opened = `.tab.active[data-path="${file}"]`;
    // From the keystroke to the tab showing the file (in the page's clock, typing included).
    await page.evaluate(recordAppearance, [opened]);
    await page.keyboard.press('ControlOrMeta+P');
    await page.keyboard.type(`pro api${100 + run}`);
    await expect(page.locator('#picker-list').getByRole('option').first()).toContainText(
      `api-${100 + run}.openapi.yaml`,
    );
    await page.keyboard.press('Enter');
    await expect(page.locator(opened)).toBeVisible();
    runs.push(await appearedAfter(page, opened));
    await expect(page.locator('.editor-host .monaco-editor .view-lines')).toContainText(`spec ${100 + run}`);
  }
  measure('Ctrl+P to a file open among 200 specs', runs);
});
