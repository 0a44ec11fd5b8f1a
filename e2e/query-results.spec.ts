import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { screenshot } from './screenshots.js';
import { openQueryTab, typeQuery } from './query-tabs.js';

test.describe.configure({ mode: 'serial' });

/** Orders (a count) and revenue (DECIMAL, hundreds of thousands) by region, and a HUGEINT no double holds. */
const regions = `SELECT * FROM (VALUES
  ('EU', 920, 256000.50::DECIMAL(18,2), 170141183460469231731687303715884105727::HUGEINT),
  ('NA', 610, 181000.00::DECIMAL(18,2), 42::HUGEINT),
  ('APAC', 230, 64000.25::DECIMAL(18,2), -7::HUGEINT)) t(region, orders, revenue, big)`;

test('a 10,000-row result is read a page at a time, in the page size chosen', async ({ page }) => {
  await openQueryTab(page);
  await typeQuery(page, 'SELECT i, i * 2 AS double_i FROM range(10000) t(i)');
  await page.keyboard.press('ControlOrMeta+Enter');
  const pager = page.getByRole('navigation', { name: 'Result pages' });
  const grid = page.getByRole('grid', { name: 'Query results' });
  await expect(pager).toContainText('Page 1 of 100 · rows 1–100 of 10000');
  await expect(pager.getByRole('button', { name: 'Previous page' })).toBeDisabled();

  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager).toContainText('Page 2 of 100 · rows 101–200 of 10000');
  // Row numbers count through the whole result; the page starts at row 101, i = 100.
  await expect(grid.getByRole('row').nth(1).getByRole('gridcell').first()).toHaveText('100');
  await expect(grid.getByRole('row').nth(1).locator('.index')).toHaveText('101');

  await pager.getByRole('button', { name: 'Last page' }).click();
  await expect(pager).toContainText('Page 100 of 100 · rows 9901–10000 of 10000');
  await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(grid.getByRole('gridcell', { name: '9999', exact: true })).toBeVisible();
  await screenshot(page, 'results-01-paged');

  // A larger page keeps the first row shown in view: row 9901 is on page 10 of 1000 rows.
  await pager.getByLabel('Rows per page').selectOption('1000');
  await expect(pager).toContainText('Page 10 of 10 · rows 9001–10000 of 10000');
  await pager.getByRole('button', { name: 'First page' }).click();
  await expect(pager).toContainText('Page 1 of 10 · rows 1–1000 of 10000');
  // Sorting sorts the whole result, not the page: descending, the first row is the last one of the result.
  await grid.getByRole('columnheader', { name: /^i / }).click();
  await grid.getByRole('columnheader', { name: /^i / }).click();
  await expect(grid.getByRole('row').nth(1).getByRole('gridcell').first()).toHaveText('9999');
});

test('an async job of 10,000 rows is read from the server a page at a time', async ({ page }) => {
  await openQueryTab(page);
  await page.getByLabel('Async').check();
  await typeQuery(page, 'SELECT i FROM range(10000) t(i) ORDER BY i');
  await page.keyboard.press('ControlOrMeta+Enter');
  const jobs = page.getByRole('list', { name: 'Async jobs' });
  await expect(jobs.getByRole('listitem').first()).toHaveAttribute('data-status', 'COMPLETED');
  await jobs.getByRole('button', { name: 'Open results' }).click();
  const pager = page.getByRole('navigation', { name: 'Result pages' });
  const grid = page.getByRole('grid', { name: 'Query results' });
  await expect(pager).toContainText('Page 1 of 10 · rows 1–1000 of 10000');
  const pageRead = page.waitForRequest((request) => /\/results\?offset=1000&limit=1000$/.test(request.url()));
  await pager.getByRole('button', { name: 'Next page' }).click();
  await pageRead;
  await expect(pager).toContainText('Page 2 of 10 · rows 1001–2000 of 10000');
  await expect(grid.getByRole('row').nth(1).getByRole('gridcell').first()).toHaveText('1000');
  await pager.getByLabel('Rows per page').selectOption('100');
  await expect(pager).toContainText('Page 11 of 100 · rows 1001–1100 of 10000');
  await expect(grid.getByRole('row').nth(1).getByRole('gridcell').first()).toHaveText('1000');
  await screenshot(page, 'results-02-job-pages');
});

test('a long synchronous query is cancelled from the output area, by button and by Esc', async ({ page }) => {
  await openQueryTab(page);
  const output = page.locator('.query-output');
  await typeQuery(page, 'SELECT count(*) FROM range(10000000000)');
  await page.keyboard.press('ControlOrMeta+Enter');
  const running = output.getByRole('status').filter({ hasText: 'Running…' });
  await expect(running).toBeVisible();
  await screenshot(page, 'results-03-running');
  const cancelledAt = Date.now();
  await running.getByRole('button', { name: 'Cancel' }).click();
  await expect(output.getByRole('status')).toHaveText('The query was cancelled.');
  await expect(output.getByRole('alert')).toHaveCount(0);

  // The server stopped it: the next query is not stuck behind it.
  await typeQuery(page, 'SELECT 42 AS answer');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByRole('grid', { name: 'Query results' }).getByRole('gridcell', { name: '42' })).toBeVisible();
  console.log(`[measure] cancel of a 10^10-row count until the next query's rows: ${Date.now() - cancelledAt} ms`);

  await typeQuery(page, 'SELECT count(*) FROM range(10000000000)');
  await page.keyboard.press('ControlOrMeta+Enter');
  await running.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Escape');
  await expect(output.getByRole('status')).toHaveText('The query was cancelled.');
  await screenshot(page, 'results-04-cancelled');
});

test('the chart draws the chosen x, y and kind, a count and a revenue on axes of their own', async ({ page }) => {
  await openQueryTab(page);
  await typeQuery(page, regions);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByLabel('Result statistics')).toContainText('3 rows');
  await page.getByRole('tab', { name: 'Chart' }).click();
  const chart = page.locator('.query-chart');
  const y = chart.getByRole('group', { name: 'Chart y columns' });
  // By default every numeric column; the HUGEINT is not wanted here.
  await y.getByLabel('big').uncheck();
  await expect(chart.getByRole('img')).toHaveAccessibleName('bar chart of orders, revenue on two axes');
  await expect(chart.locator('svg g[data-axis="right"]')).toHaveAttribute('aria-label', 'right axis: revenue');
  await expect(chart.locator('svg g[data-axis="left"]')).toHaveAttribute('aria-label', 'left axis: orders');
  await expect(chart.locator('svg rect')).toHaveCount(6);
  // The count's bars are read against their own axis: the tallest of each series reaches the top.
  const tallest = await chart
    .locator('svg g[data-series]')
    .evaluateAll((groups) =>
      groups.map((g) =>
        Math.max(...Array.from(g.querySelectorAll('rect')).map((r) => Number(r.getAttribute('height')))),
      ),
    );
  expect(tallest[0]).toBeCloseTo(tallest[1], 0);
  await screenshot(page, 'results-05-chart-two-axes');

  await chart.getByLabel('Chart kind').selectOption('line');
  await expect(chart.locator('svg polyline')).toHaveCount(2);
  // Pie only for one series; scatter only along a numeric x.
  await expect(chart.getByLabel('Chart kind').locator('option[value="pie"]')).toHaveAttribute('disabled');
  await expect(chart.getByLabel('Chart kind').locator('option[value="scatter"]')).toHaveAttribute('disabled');
  await y.getByLabel('orders').uncheck();
  await chart.getByLabel('Chart kind').selectOption('pie');
  await expect(chart.locator('svg path.chart-slice')).toHaveCount(3);
  await screenshot(page, 'results-06-chart-pie');

  // The choice is remembered for this shape of result.
  await page.reload();
  await typeQuery(page, regions);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByLabel('Result statistics')).toContainText('3 rows');
  await page.getByRole('tab', { name: 'Chart' }).click();
  await expect(chart.getByLabel('Chart kind')).toHaveValue('pie');
  await chart.getByLabel('Chart x column').selectOption('orders');
  await chart.getByLabel('Chart kind').selectOption('scatter');
  await expect(chart.locator('svg circle')).toHaveCount(3);
});

test('JSON export keeps DECIMAL and HUGEINT values as numbers where exact; CSV leaves them unquoted', async ({
  page,
}) => {
  await openQueryTab(page);
  await typeQuery(page, regions);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByLabel('Result statistics')).toContainText('3 rows');
  const saved = async (button: string) => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: button }).click();
    return fs.readFileSync((await (await download).path())!, 'utf8');
  };
  const json = JSON.parse(await saved('Export JSON')) as Record<string, unknown>[];
  expect(json).toEqual([
    { region: 'EU', orders: 920, revenue: 256000.5, big: '170141183460469231731687303715884105727' },
    { region: 'NA', orders: 610, revenue: 181000, big: 42 },
    { region: 'APAC', orders: 230, revenue: 64000.25, big: -7 },
  ]);
  const csv = (await saved('Export CSV')).split('\r\n');
  expect(csv[0]).toBe('region,orders,revenue,big');
  expect(csv[1]).toBe('EU,920,256000.50,170141183460469231731687303715884105727');
  expect(csv[3]).toBe('APAC,230,64000.25,-7');
});
