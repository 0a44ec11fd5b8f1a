import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const url = () => process.env.WORKBENCH_URL!;
const workspace = () => process.env.WORKBENCH_WORKSPACE!;
const specPath = (name: string) => path.join(workspace(), 'specs', name);

const examplesSpec = `# Pets for the mock modes test.
openapi: 3.0.3
info: {title: E2E mock, version: '1'}
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                maxItems: 3
                items: {type: object, required: [name], properties: {name: {type: string}}}
              example: [{name: Rex}]
`;

const statefulSpec = `openapi: 3.0.3
info: {title: E2E zoo, version: '1'}
x-adaptive-state: true
paths:
  /animals:
    get:
      responses:
        '200': {description: ok, content: {application/json: {example: [{id: 1, name: Leo}]}}}
    post:
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses:
        '201': {description: created, content: {application/json: {example: {id: 1, name: Leo}}}}
  /animals/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {application/json: {example: {id: 1, name: Leo}}}}
`;

const proxiedSpec = (upstream: string) => `# The shop, proxied to its backend.
openapi: 3.0.3
info: {title: E2E shop, version: '1'}
x-adaptive-proxy: ${upstream}
paths:
  /items/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200':
          description: one item # as the backend sends it
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}
`;

let upstream: http.Server;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  upstream = http.createServer((request, response) => {
    const id = Number((request.url ?? '').split('/').pop());
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, name: `Lamp ${id}` }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  fs.writeFileSync(specPath('e2e-mock.openapi.yaml'), examplesSpec);
  fs.writeFileSync(specPath('e2e-zoo.openapi.yaml'), statefulSpec);
  fs.writeFileSync(specPath('e2e-shop.openapi.yaml'), proxiedSpec(base));
});

test.afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
  for (const name of ['e2e-mock', 'e2e-zoo', 'e2e-shop']) fs.rmSync(specPath(`${name}.openapi.yaml`), { force: true });
});

/** Calls the gateway from the page, as the frontend under development would. */
async function call(page: Page, path: string, init: { method?: string; body?: unknown; prefer?: string } = {}) {
  return page.evaluate(
    async ({ path, init }) => {
      const headers: Record<string, string> = {};
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      if (init.prefer) headers.prefer = init.prefer;
      const response = await fetch(path, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      return { status: response.status, mode: response.headers.get('x-adaptive-mode'), body: await response.json() };
    },
    { path, init },
  );
}

async function showPanel(page: Page, id: string): Promise<void> {
  await page.locator(`.panel-tab[data-panel="${id}"]`).click();
  await expect(page.locator(`[data-panel-body="${id}"]`)).toBeVisible();
}

/** The newest row of the requests panel. */
const newestRequest = (page: Page) => page.locator('table.requests tbody tr').first();

test('switches a spec to dynamic from the mock panel and the requests panel marks the mode', async ({ page }) => {
  await page.goto(url());
  await showPanel(page, 'requests');
  await showPanel(page, 'mock');
  const mode = page.getByLabel('Mode of e2e-mock.openapi.yaml');
  await expect(mode).toHaveValue('static');
  await expect(page.locator('tr[data-spec="specs/e2e-mock.openapi.yaml"]')).toContainText('workspace default');

  expect((await call(page, '/api/adaptive/e2e-mock/pets')).mode).toBe('static');
  await expect(newestRequest(page)).toContainText('/e2e-mock/pets');
  await expect(newestRequest(page).locator('.mode-badge')).toHaveText('static');

  await mode.selectOption('dynamic');
  await expect(page.getByRole('status')).toContainText('switched to dynamic');
  // A normal edit of the file: saved, open in a tab, reloaded.
  expect(fs.readFileSync(specPath('e2e-mock.openapi.yaml'), 'utf8')).toContain('x-mock:\n  examples: dynamic');
  expect(fs.readFileSync(specPath('e2e-mock.openapi.yaml'), 'utf8')).toContain('# Pets for the mock modes test.');
  await expect(page.locator('.tab.active')).toContainText('e2e-mock.openapi.yaml');
  await expect(page.locator('tr[data-spec="specs/e2e-mock.openapi.yaml"]')).toContainText('x-mock.examples');
  await expect.poll(async () => (await call(page, '/api/adaptive/e2e-mock/pets')).mode).toBe('dynamic');
  await expect(newestRequest(page).locator('.mode-badge')).toHaveText('dynamic');
  await page.screenshot({ path: path.resolve('test-results', 'screenshots', 'mock-panel.png') });
});

test('resets the state of a stateful spec from the mock panel', async ({ page }) => {
  await page.goto(url());
  await showPanel(page, 'mock');
  const created = await call(page, '/api/adaptive/e2e-zoo/animals', { method: 'POST', body: { name: 'Zed' } });
  expect([created.status, created.mode]).toEqual([201, 'stateful']);
  expect((await call(page, '/api/adaptive/e2e-zoo/animals')).body).toHaveLength(2);
  await page.getByLabel('Reset the state of e2e-zoo.openapi.yaml').click();
  await expect(page.getByRole('status')).toHaveText('State reset: e2e-zoo');
  expect((await call(page, '/api/adaptive/e2e-zoo/animals')).body).toEqual([{ id: 1, name: 'Leo' }]);
  await page.getByRole('button', { name: 'Reset all state' }).click();
  await expect(page.getByRole('status')).toContainText('State reset:');
});

test('records an upstream answer as a named example through a reviewed diff', async ({ page }) => {
  await page.goto(url());
  await showPanel(page, 'requests');
  await showPanel(page, 'mock');
  const answered = await call(page, '/api/adaptive/e2e-shop/items/42');
  expect([answered.status, answered.mode, answered.body]).toEqual([200, 'proxy', { id: 42, name: 'Lamp 42' }]);
  await expect(newestRequest(page).locator('.mode-badge')).toHaveText('proxy');

  await page.getByRole('button', { name: 'Refresh mock modes' }).click();
  await page.getByLabel('Record answers of e2e-shop.openapi.yaml').click();
  const exchange = page.getByRole('table', { name: 'Recorded exchanges' }).locator('tr', { hasText: '/items/42' });
  await exchange.click();
  const diff = page.getByLabel('Proposed change');
  await expect(diff.locator('.monaco-diff-editor')).toBeVisible();
  await expect(diff).toContainText('recorded-1');
  await page.screenshot({ path: path.resolve('test-results', 'screenshots', 'mock-record-diff.png') });
  // Nothing is written before Apply.
  expect(fs.readFileSync(specPath('e2e-shop.openapi.yaml'), 'utf8')).not.toContain('recorded-1');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('status')).toContainText('Example recorded-1 saved');
  const saved = fs.readFileSync(specPath('e2e-shop.openapi.yaml'), 'utf8');
  expect(saved).toContain('# The shop, proxied to its backend.');
  expect(saved).toContain('description: one item # as the backend sends it');
  expect(saved).toMatch(/examples:\n\s+recorded-1:/);
  await expect(page.locator('.tab.active')).toContainText('e2e-shop.openapi.yaml');
});
