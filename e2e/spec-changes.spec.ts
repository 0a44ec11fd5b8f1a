import { expect, test } from '@playwright/test';
import { newFileContent } from '../renderer/src/state/templates.js';
import { editor, replaceEditorText } from './editor-text.js';

const url = () => process.env.WORKBENCH_URL!;

// The new file's own template, whose last key is `paths`, with an /orders path added: the first save adds a path
// and removes none, so it breaks nothing.
const ordersSpec =
  newFileContent('specs/e2e-orders.openapi.yaml') +
  `  /orders:
    get:
      responses:
        '200':
          description: The orders
          content:
            application/json:
              schema:
                type: object
                properties:
                  id: {type: integer}
                  customer: {type: string}
`;

test('a save that removes a response field says "1 breaking change" and lists it with where it is', async ({
  page,
}) => {
  // Two saves and a new file: on a busy machine this takes longer than the default two minutes.
  test.slow();
  await page.goto(url());
  await page.locator('.tree-row[data-path="specs/library-api.openapi.yaml"]').click();
  await page.getByRole('button', { name: 'New file' }).click();
  const name = page.getByRole('textbox', { name: 'Name' });
  await name.fill('e2e-orders.openapi.yaml');
  await name.press('Enter');
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', 'specs/e2e-orders.openapi.yaml');
  await expect(editor(page).locator('.view-lines')).toContainText('openapi: 3.0.3');
  await replaceEditorText(page, ordersSpec);
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
  await expect(page.locator('.swagger-host .opblock-summary-path[data-path="/e2e-orders/orders"]')).toBeVisible();
  // The template's /hello is kept (ordersSpec above), so this first save only adds: nothing breaks.
  const notice = page.locator('.statusbar .status-changes');
  await expect(notice).toHaveText(/^\d+ non-breaking changes? since the last version$/);

  // Other specs' saves (earlier tests on this server) may have breaking changes of their own: the badge adds them.
  const badge = page.locator('.panel-tab[data-panel="changes"]');
  const breakingBefore = Number((await badge.textContent())?.match(/\d+/)?.[0] ?? 0);
  // The field goes: a client reading `customer` breaks.
  await replaceEditorText(page, ordersSpec.replace('                  customer: {type: string}\n', ''));
  await page.keyboard.press('ControlOrMeta+S');
  await expect(notice).toHaveText('1 breaking change since the last version');
  await expect(notice).toHaveClass(/breaking/);

  await notice.click();
  const panel = page.locator('[data-panel-body="changes"]');
  await expect(panel.locator('details[open] summary')).toContainText('specs/e2e-orders.openapi.yaml');
  const row = panel.locator('tr', { hasText: 'property-removed' });
  await expect(row).toContainText('breaking');
  await expect(row).toContainText('GET /orders response 200 application/json customer');
  await expect(badge).toContainText(String(breakingBefore + 1));
});
