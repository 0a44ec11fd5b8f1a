import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './screenshots.js';
import { openQueryTab, typeQuery } from './query-tabs.js';

test.describe.configure({ mode: 'serial' });

const script = [
  "SELECT 'a;b' AS x; -- one row",
  'SELECT * FROM shop.orders LIMIT 2;',
  'SELECT i FROM range(3) t(i)',
].join('\n');

const stats = (page: Page) => page.getByLabel('Result statistics');
const alert = (page: Page) => page.locator('.query-output').getByRole('alert');

test('Ctrl+Enter runs the statement at the cursor or the selection; Ctrl+Shift+Enter the script, a tab each', async ({
  page,
}) => {
  await openQueryTab(page);
  await typeQuery(page, script);
  // The cursor is on the last line: only that statement runs.
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(stats(page)).toContainText('3 rows');
  await expect(page.getByRole('tablist', { name: 'Statements of the script' })).toHaveCount(0);

  // On the second line: the second statement.
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(stats(page)).toContainText('2 rows');

  // A selection runs as it is: part of the first statement, without its alias, names its column by its text.
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 0; i < "SELECT 'a;b'".length; i++) await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ControlOrMeta+Enter');
  const grid = page.getByRole('grid', { name: 'Query results' });
  await expect(grid.getByRole('columnheader', { name: /^'a;b'/ })).toBeVisible();

  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ControlOrMeta+Shift+Enter');
  const tabs = page.getByRole('tablist', { name: 'Statements of the script' }).getByRole('tab');
  await expect(tabs).toHaveText(['1. 1 row', '2. 2 rows', '3. 3 rows']);
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  await expect(grid.getByRole('gridcell', { name: 'a;b' })).toBeVisible();
  // The tabs are read with the keyboard: Tab into the selected one, arrows between them.
  await tabs.first().focus();
  await page.keyboard.press('End');
  await expect(tabs.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.nth(2)).toBeFocused();
  await expect(stats(page)).toContainText('3 rows');
  await screenshot(page, 'query-statements-01-script');
});

test('a failing statement stops the script, is marked where the engine says, and goes stale when edited', async ({
  page,
}) => {
  await openQueryTab(page);
  await typeQuery(page, 'SELECT 1;\nSELECT 2;\n  SELECT FROM WHERE;\nSELECT 4');
  await page.keyboard.press('ControlOrMeta+Shift+Enter');
  const tabs = page.getByRole('tablist', { name: 'Statements of the script' }).getByRole('tab');
  await expect(tabs).toHaveText(['1. 1 row', '2. 1 row', '3. Error', '4. Not run']);
  // The failed statement's tab is shown, and its error is marked on the third line, not the statement's first.
  await expect(tabs.nth(2)).toHaveAttribute('aria-selected', 'true');
  await expect(alert(page)).toContainText(/Syntax error at line 1/);
  const squiggle = page.locator('.query-editor .squiggly-error');
  await expect(squiggle).toHaveCount(1);
  const lines = page.locator('.query-editor .view-line');
  const third = await lines.nth(2).boundingBox();
  const marked = await squiggle.boundingBox();
  expect(Math.abs(marked!.y - third!.y)).toBeLessThan(third!.height);
  expect(marked!.x).toBeGreaterThan(third!.x + 20);
  await screenshot(page, 'query-statements-02-error');

  await page.keyboard.type(' ');
  await expect(alert(page)).toContainText('Stale');
  await expect(squiggle).toHaveCount(0);
});

test('a long run shows its elapsed time counting up', async ({ page }) => {
  await openQueryTab(page);
  await typeQuery(page, 'SELECT sum(hash(i)) % 1000 AS n FROM range(250000000) t(i)');
  await page.keyboard.press('ControlOrMeta+Enter');
  const elapsed = page.locator('.query-output .banner.running .elapsed');
  await expect(elapsed).toHaveText(/\d+\.\d s/);
  const first = await elapsed.textContent();
  await expect(elapsed).not.toHaveText(first!);
  await page.keyboard.press('Escape');
});

test('Shift+Alt+F formats SQL, and SPARQL; Ctrl+Z undoes it', async ({ page }) => {
  await openQueryTab(page);
  await typeQuery(page, 'select a, b from shop.orders where a = 1');
  await page.keyboard.press('Shift+Alt+KeyF');
  const lines = page.locator('.query-editor .view-line');
  await expect(lines).toHaveText(['select', '  a,', '  b', 'from', '  shop.orders', 'where', '  a = 1']);
  await screenshot(page, 'query-statements-03-formatted');
  await page.keyboard.press('ControlOrMeta+KeyZ');
  await expect(lines).toHaveText(['select a, b from shop.orders where a = 1']);

  await page.getByRole('tab', { name: 'SPARQL' }).click();
  await typeQuery(page, 'SELECT ?s WHERE { ?s a ?c ; ?p ?o } LIMIT 3');
  await page.keyboard.press('Shift+Alt+KeyF');
  await expect(lines).toHaveText(['SELECT ?s WHERE {', '  ?s a ?c;', '    ?p ?o.', '}', 'LIMIT 3']);
});

test('EXPLAIN ANALYZE shows a plan tree with times and rows, read with the keyboard alone', async ({ page }) => {
  await openQueryTab(page);
  await typeQuery(
    page,
    'EXPLAIN ANALYZE SELECT c.region, count(*) AS n FROM shop.orders o ' +
      'JOIN shop.customers c ON o.customer_id = c.id GROUP BY 1',
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const tree = page.getByRole('tree', { name: 'Query plan' });
  await expect(tree).toBeVisible();
  await expect(page.locator('.plan-summary')).toContainText(/analysed: [\d.]+ ms in all/);
  await expect(tree.getByRole('treeitem').filter({ hasText: 'HASH_JOIN' })).toContainText(/ms/);
  await expect(
    tree
      .getByRole('treeitem')
      .filter({ hasText: /1,500 rows/ })
      .first(),
  ).toBeVisible();

  // Out of the editor (Ctrl+M: Tab moves the focus), Tab to the plan, then arrows through it.
  await page.keyboard.press('ControlOrMeta+KeyM');
  const first = tree.getByRole('treeitem').first();
  for (let i = 0; i < 15 && !(await first.evaluate((e) => e === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(tree.getByRole('treeitem').nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  await expect(first).toHaveAttribute('aria-expanded', 'false');
  await expect(tree.getByRole('treeitem')).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await screenshot(page, 'query-statements-04-plan');

  await typeQuery(page, 'EXPLAIN DELETE FROM shop.orders');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.locator('.query-output').getByRole('alert')).toContainText(
    'EXPLAIN and EXPLAIN ANALYZE are allowed',
  );
});
