import http from 'node:http';
import { expect, test } from '@playwright/test';
import { screenshot } from './screenshots.js';

const url = () => process.env.WORKBENCH_URL!;

/** The service behind the `e2epartner/api` component global-setup wrote into health.yaml. */
function startPartner(): Promise<http.Server> {
  const server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end('{"status":"ok"}');
  });
  return new Promise((resolve) =>
    server.listen(Number(process.env.E2E_PARTNER_PORT), '127.0.0.1', () => resolve(server)),
  );
}

test('the health tree shows the components, and one turns DOWN when its service stops', async ({ page }) => {
  const partner = await startPartner();
  await page.addInitScript(() => {
    localStorage.setItem(
      'adaptive-workbench:layout',
      JSON.stringify({ sideVisible: true, sidePanel: 'health', sideWidth: 760 }),
    );
    localStorage.setItem('adaptive-workbench:health-interval', '2000');
    localStorage.removeItem('adaptive-workbench:health-expanded');
  });
  await page.goto(url());
  const tree = page.getByRole('treegrid', { name: 'Health components' });
  for (const component of ['gateway', 'database', 'objectstore', 'broker', 'e2epartner'])
    await expect(tree.locator(`tr[data-path="${component}"]`)).toBeVisible();
  await expect(page.getByLabel('Overall status')).toHaveText('UP');

  await page.getByRole('button', { name: 'Expand all' }).click();
  const api = tree.locator('tr[data-path="e2epartner/api"]');
  await expect(api).toHaveAttribute('data-status', 'UP');
  await expect(api).toContainText(/\d+ ms/);
  await expect(tree.locator('tr[data-path="database/shop"]')).toContainText('duckdb');
  await expect(page.getByLabel('Last check')).toContainText('Checked');
  await screenshot(page, 'health-01-up');

  const closed = new Promise<void>((resolve) => partner.close(() => resolve()));
  partner.closeAllConnections();
  await closed;
  await expect(api).toHaveAttribute('data-status', 'DOWN');
  await expect(api.locator('.health-error')).not.toBeEmpty();
  await expect(page.getByLabel('Overall status')).toHaveText('DOWN');
  await expect(tree.locator('tr[data-path="gateway"]')).toHaveAttribute('data-status', 'UP');
  await screenshot(page, 'health-02-down');

  // Collapsing hides the sub-components; the interval selector stops the refresh.
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(api).toBeHidden();
  await page.getByLabel('Refresh interval').selectOption('0');
});
