import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const url = () => process.env.WORKBENCH_URL!;
const specPath = (name: string) => path.join(process.env.WORKBENCH_WORKSPACE!, 'specs', name);

const ordersSpec = `# Orders for the mock table test.
openapi: 3.0.3
info: {title: E2E orders, version: '1'}
paths:
  /orders:
    get:
      parameters: [{name: status, in: query, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              examples:
                all: {value: [{id: 1, status: open}, {id: 2, status: closed}]}
                open: {value: [{id: 1, status: open}]}
        '503': {description: down, content: {application/json: {example: {detail: maintenance}}}}
`;

test.beforeAll(() => fs.writeFileSync(specPath('e2e-orders.openapi.yaml'), ordersSpec));
test.afterAll(() => {
  for (const name of ['e2e-orders.openapi.yaml', 'e2e-orders.mock.yaml']) fs.rmSync(specPath(name), { force: true });
});

/** Calls the gateway from the page, as the frontend under development would. */
function call(page: Page, path: string) {
  return page.evaluate(async (path) => {
    const response = await fetch(path);
    return { status: response.status, rule: response.headers.get('x-adaptive-mock-rule'), body: await response.json() };
  }, path);
}

async function showPanel(page: Page, id: string): Promise<void> {
  await page.locator(`.panel-tab[data-panel="${id}"]`).click();
  await expect(page.locator(`[data-panel-body="${id}"]`)).toBeVisible();
}

test("edits a route's settings and a rule in the mock table, and the next request answers by them", async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(url());
  await showPanel(page, 'requests');
  await showPanel(page, 'mock');
  await expect(page.locator('tr[data-spec="specs/e2e-orders.openapi.yaml"]')).toContainText('/api/adaptive/e2e-orders');
  // The mount's base URL, copied with one click.
  await page.getByRole('button', { name: 'Copy the base URL of /e2e-orders' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${new URL(page.url()).origin}/api/adaptive/e2e-orders`,
  );
  expect((await call(page, '/api/adaptive/e2e-orders/orders?status=open')).body).toHaveLength(2);

  await page.getByLabel('Routes of e2e-orders.openapi.yaml').click();
  const route = 'GET /orders';
  await page.getByLabel(`Answer of ${route}`).selectOption('200/all');
  await page.getByLabel(`Status of ${route}`).fill('203');
  await page.getByLabel(`Rules of ${route}`, { exact: true }).click();
  await page.getByRole('button', { name: 'Add rule' }).click();
  const rule = `Rule 1 of ${route}`;
  await page.getByLabel(`${rule}: source`).selectOption('query');
  await page.getByLabel(`${rule}: key`).fill('status');
  await page.getByLabel(`${rule}: value`).fill('open');
  await page.getByLabel(`${rule}: answer`).selectOption('200/open');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status')).toContainText('specs/e2e-orders.mock.yaml saved');
  // The file beside the spec holds the table; the contract is untouched.
  expect(fs.readFileSync(specPath('e2e-orders.openapi.yaml'), 'utf8')).toBe(ordersSpec);
  expect(fs.readFileSync(specPath('e2e-orders.mock.yaml'), 'utf8')).toContain('GET /orders:');

  await expect
    .poll(async () => call(page, '/api/adaptive/e2e-orders/orders?status=open'))
    .toEqual({ status: 200, rule: 'rule 1', body: [{ id: 1, status: 'open' }] });
  const unmatched = await call(page, '/api/adaptive/e2e-orders/orders?status=closed');
  expect([unmatched.status, unmatched.rule, unmatched.body.length]).toEqual([203, 'route', 2]);
  await expect(page.locator('table.requests tbody tr').first().locator('.mode-badge.mock-rule')).toHaveText('route');
});
