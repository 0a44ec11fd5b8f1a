import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './screenshots.js';
import { openQueryTab, typeQuery } from './query-tabs.js';

const url = () => process.env.WORKBENCH_URL!;

/** The demo join of docs/query.md across all three source kinds: click stream, lake Parquet, shop database. */
const crossSourceJoin = `SELECT p.category, count(*) AS checkouts, avg(o.amount) AS avg_order_value
FROM events.clicks k
JOIN lake.products p ON p.product_id = k.product_id
JOIN shop.orders o ON o.customer_id = k.customer_id AND o.product_id = k.product_id
JOIN shop.customers c ON c.id = o.customer_id
WHERE k.action = 'checkout'
GROUP BY p.category ORDER BY checkouts DESC`;

test.describe.configure({ mode: 'serial' });

/** Shows another query tab and comes back to the first: only the active tab's console is mounted. */
async function showAnotherTabAndBack(page: Page): Promise<void> {
  const first = page.locator('.tabs .tab').first();
  await page.keyboard.press('Alt+KeyQ');
  await expect(first).not.toHaveClass(/active/);
  await first.click();
  await expect(first).toHaveClass(/active/);
}

test(
  'the console runs the cross-source demo join with Ctrl+Enter and shows rows, a chart and the learnt ' + 'tables',
  async ({ page }) => {
    await openQueryTab(page);
    const tree = page.getByRole('tree', { name: 'Query sources' });
    for (const source of ['shop', 'lake', 'events'])
      await expect(tree.getByRole('treeitem', { name: source, exact: true })).toBeVisible();
    // Every source lists its tables before any query has named them.
    await tree.getByRole('treeitem', { name: 'events', exact: true }).click();
    await expect(tree.getByRole('treeitem', { name: 'events.clicks' })).toBeVisible();

    await typeQuery(page, crossSourceJoin);
    await page.keyboard.press('ControlOrMeta+Enter');
    // Only the active tab is mounted: the console keeps its outcome, even one that arrives while hidden.
    await showAnotherTabAndBack(page);
    const grid = page.getByRole('grid', { name: 'Query results' });
    await expect(grid.getByRole('gridcell', { name: 'books', exact: true })).toBeVisible();
    await expect(page.getByLabel('Result statistics')).toContainText(/5 rows · \d+ ms/);
    const columns = await grid.getByRole('columnheader').allTextContents();
    expect(columns.map((c) => c.split(' ')[0])).toEqual(['#', 'category', 'checkouts', 'avg_order_value']);

    // Sorting by a column: ascending checkouts puts the smallest category first.
    await grid.getByRole('columnheader', { name: /^checkouts/ }).click();
    await expect(grid.getByRole('row').nth(1).getByRole('gridcell').first()).toHaveText('games');

    // The tables the query named are now in the sidebar, with their columns.
    await tree.getByRole('treeitem', { name: 'shop', exact: true }).click();
    await tree.getByRole('treeitem', { name: 'shop.orders' }).click();
    await expect(tree).toContainText('amount DECIMAL(10,2)');
    await screenshot(page, 'query-01-cross-source-join');

    await page.getByRole('tab', { name: 'Chart' }).click();
    await expect(page.locator('.query-chart svg rect')).toHaveCount(10);
    await screenshot(page, 'query-02-chart');
    await page.getByRole('tab', { name: 'Grid' }).click();
  },
);

test('a console shown again while its query runs shows the answer when it comes', async ({ page }) => {
  await openQueryTab(page);
  // About two seconds of DuckDB work: long enough to hide and show the console while it runs.
  await typeQuery(page, 'SELECT sum(hash(i)) % 1000 AS n FROM range(250000000) t(i)');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByRole('button', { name: 'Running…' })).toBeVisible();
  await showAnotherTabAndBack(page);
  await expect(page.getByRole('button', { name: 'Running…' })).toBeVisible();
  await expect(page.getByLabel('Result statistics')).toContainText(/1 row/, { timeout: 30_000 });
});

test('completion offers tables and columns; an error shows its detail; history keeps the runs', async ({ page }) => {
  await openQueryTab(page);
  await typeQuery(page, 'SELECT * FROM shop.orders LIMIT 3');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByLabel('Result statistics')).toContainText('3 rows');
  // The run taught the console the table (its columns come from one more query).
  const tree = page.getByRole('tree', { name: 'Query sources' });
  await tree.getByRole('treeitem', { name: 'shop', exact: true }).click();
  await tree.getByRole('treeitem', { name: 'shop.orders' }).click();
  await expect(tree).toContainText('amount');

  // Columns of a table through its alias, typed between SELECT and FROM.
  await typeQuery(page, 'SELECT  FROM shop.orders o');
  await page.keyboard.press('Home');
  for (let i = 0; i < 'SELECT '.length; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.type('o.');
  const suggest = page.locator('.suggest-widget');
  await expect(suggest).toContainText('amount');
  await expect(suggest).toContainText('customer_id');
  await screenshot(page, 'query-03-completion');
  await page.keyboard.press('Escape');

  await typeQuery(page, 'SELECT no_such_column FROM shop.orders');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.locator('.query-output').getByRole('alert')).toContainText('no_such_column');

  await page.getByRole('tab', { name: 'History' }).click();
  const history = page.getByRole('list', { name: 'Query history' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').first()).toContainText('no_such_column');
  await screenshot(page, 'query-04-error-history');

  // A history entry goes back into the editor, and runs from there.
  await history.getByRole('listitem').nth(1).getByRole('button').click();
  await expect(page.locator('.query-editor .view-lines')).toContainText('LIMIT');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByLabel('Result statistics')).toContainText('3 rows');
});

test('a result at the row limit is truncated and the grid renders only the rows in view', async ({ page }) => {
  await openQueryTab(page);
  await typeQuery(page, 'SELECT i, i * 2 AS double_i FROM range(20000) t(i)');
  const started = Date.now();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByLabel('Result statistics')).toContainText('10000 rows (truncated)');
  console.log(`[measure] 10,000-row result run and shown: ${Date.now() - started} ms`);
  const grid = page.getByRole('grid', { name: 'Query results' });
  expect(await grid.getByRole('row').count()).toBeLessThan(100);
  // The rows come a page at a time (e2e/query-results.spec.ts): the last row is at the foot of the last page.
  await page.getByRole('button', { name: 'Last page' }).click();
  await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(grid.getByRole('gridcell', { name: '19998', exact: true })).toBeVisible();
  await screenshot(page, 'query-07-large-result');
});

test('an async query becomes a job that completes and opens its results', async ({ page }) => {
  await openQueryTab(page);
  await page.getByLabel('Async').check();
  await typeQuery(page, 'SELECT id, name, region FROM shop.customers ORDER BY id');
  await page.keyboard.press('ControlOrMeta+Enter');
  const jobs = page.getByRole('list', { name: 'Async jobs' });
  await expect(jobs.getByRole('listitem').first()).toHaveAttribute('data-status', 'COMPLETED');
  await jobs.getByRole('button', { name: 'Open results' }).click();
  await expect(page.getByLabel('Result statistics')).toContainText(/Job \S+ · \d+ rows/);
  await expect(page.getByRole('grid', { name: 'Query results' }).getByRole('row').nth(1)).toBeVisible();
  await screenshot(page, 'query-05-async-job');

  // Another tab and back: the result and the job are still there.
  await showAnotherTabAndBack(page);
  await expect(page.getByLabel('Result statistics')).toContainText(/Job \S+ · \d+ rows/);
  await page.getByRole('tab', { name: 'Jobs' }).click();
  await expect(jobs.getByRole('listitem').first()).toHaveAttribute('data-status', 'COMPLETED');
});

test('the SPARQL and Question tabs run against their endpoints and show rows', async ({ page }) => {
  await openQueryTab(page);
  await page.getByRole('tab', { name: 'SPARQL' }).click();
  await typeQuery(page, 'SELECT ?customer WHERE { ?customer a <http://example.com/shop#Customer> } LIMIT 4');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByLabel('Result statistics')).toContainText('4 rows');
  await expect(
    page
      .getByRole('grid', { name: 'Query results' })
      .getByRole('gridcell', { name: /^http:\/\/example\.com\/shop\/customer\// })
      .first(),
  ).toBeVisible();

  await page.getByRole('tab', { name: 'Question' }).click();
  await page.getByLabel('Question').fill('how many customers are there in each region');
  await page.getByLabel('Question').press('ControlOrMeta+Enter');
  // The answer's wording is the translator's; the rows are what the question asks.
  await expect(page.locator('.query-output').getByRole('note')).toContainText(/region/i);
  await expect(
    page.getByRole('grid', { name: 'Query results' }).getByRole('gridcell', { name: 'LATAM', exact: true }),
  ).toBeVisible();
  await expect(page.locator('.generated-query')).toContainText('shop');
  await expect(page.getByLabel('Result statistics')).toContainText('4 rows');
  // A grouped aggregate gets its chart beside the rows.
  await expect(page.locator('.query-chart svg')).toBeVisible();
  await screenshot(page, 'query-06-question');

  // The generated SQL goes to a new SQL tab, where it can be edited and run.
  const generated = (await page.locator('.generated-query').textContent())!;
  await page.getByRole('button', { name: 'Edit in SQL' }).click();
  await expect(page.getByRole('tab', { name: 'SQL', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.query-editor .view-lines')).toContainText(generated.split('\n')[0].trim().slice(0, 30));
  await page.locator('.query-editor .monaco-editor').click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(
    page.getByRole('grid', { name: 'Query results' }).getByRole('gridcell', { name: 'LATAM', exact: true }),
  ).toBeVisible();
  await expect(page.getByLabel('Result statistics')).toContainText('4 rows');
  await expect(page.locator('.query-chart')).toHaveCount(0);
});

test(
  'the SPARQL tab highlights the query, completes ontology terms, shortens IRIs and shows the generated ' + 'SQL',
  async ({ page }) => {
    await openQueryTab(page);
    await page.getByRole('tab', { name: 'SPARQL' }).click();
    await typeQuery(
      page,
      'PREFIX ex: <http://example.com/shop#>\nSELECT DISTINCT ?class WHERE { ?x a ?class } # every class with ' +
        'instances',
    );
    // Keywords, variables, IRIs and the comment are told apart: several token classes, where plain text has one.
    const lines = page.locator('.query-editor .view-lines');
    await expect(lines).toContainText('every class');
    const tokenClasses = await lines
      .locator('span[class^="mtk"]')
      .evaluateAll((spans) => [...new Set(spans.map((span) => span.className))]);
    expect(tokenClasses.length).toBeGreaterThanOrEqual(4);

    await page.keyboard.press('ControlOrMeta+Enter');
    const grid = page.getByRole('grid', { name: 'Query results' });
    await expect(grid.getByRole('gridcell', { name: 'ex:Customer', exact: true })).toBeVisible();
    await expect(grid.getByRole('gridcell', { name: 'ex:PremiumCustomer', exact: true })).toBeVisible();

    // The generated SQL, above the rows it gave.
    await page.getByRole('button', { name: 'Show SQL' }).click();
    await expect(page.locator('.generated-query')).toContainText('SELECT');
    await expect(grid.getByRole('gridcell', { name: 'ex:Customer', exact: true })).toBeVisible();
    await screenshot(page, 'query-08-sparql-sql');

    // Terms of the ontology complete after their prefix.
    await page.locator('.query-editor .monaco-editor').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('ex:Prem');
    await expect(page.locator('.suggest-widget')).toContainText('PremiumCustomer');
    await screenshot(page, 'query-09-sparql-completion');
    await page.keyboard.press('Escape');
  },
);

test('a bad SPARQL prefix is marked where it is used, and the error says which', async ({ page }) => {
  await openQueryTab(page);
  await page.getByRole('tab', { name: 'SPARQL' }).click();
  await typeQuery(page, 'SELECT ?s\nWHERE { ?s foo:bar ?o }');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.locator('.query-output').getByRole('alert')).toContainText('Unknown prefix: foo');
  // One error squiggle, under `foo:bar` on the second line.
  const squiggle = page.locator('.query-editor .squiggly-error');
  await expect(squiggle).toHaveCount(1);
  const line = page.locator('.query-editor .view-line', { hasText: 'foo:bar' });
  const [squiggleBox, lineBox] = [await squiggle.boundingBox(), await line.boundingBox()];
  expect(Math.abs(squiggleBox!.y - lineBox!.y)).toBeLessThan(lineBox!.height);
  await screenshot(page, 'query-10-sparql-prefix-error');
  // The next run that works clears the mark.
  await typeQuery(page, 'SELECT ?s WHERE { ?s ?p ?o } LIMIT 1');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByLabel('Result statistics')).toContainText(/\b1 rows?\b/);
  await expect(squiggle).toHaveCount(0);
});

test('a question summing a DECIMAL column labels it DECIMAL, not VARCHAR, and charts it', async ({ page }) => {
  await openQueryTab(page);
  await page.getByRole('tab', { name: 'Question' }).click();
  await page.getByLabel('Question').fill('total order amount by region');
  await page.getByLabel('Question').press('ControlOrMeta+Enter');
  const grid = page.getByRole('grid', { name: 'Query results' });
  await expect(grid.getByRole('columnheader', { name: /^sum_amount/ })).toHaveText(/^sum_amount DECIMAL\(38,2\)/);
  await expect(page.locator('.query-chart svg')).toBeVisible();
});

test('the completion popup of a short console editor is drawn whole, over the panels around it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.addInitScript(() => {
    localStorage.setItem(
      'adaptive-workbench:layout',
      JSON.stringify({ bottomHeight: 220, bottomVisible: true, bottomPanel: 'logs', sideVisible: true }),
    );
    // A short query editor: the splitter's height, shared by every query tab.
    localStorage.setItem('adaptive-workbench:query-tabs', JSON.stringify({ editorHeight: 90 }));
  });
  await page.goto(url());
  await page.getByRole('button', { name: 'New query' }).click();
  await page.getByRole('tab', { name: 'SQL', exact: true }).click();
  await typeQuery(page, 'SELECT * FROM shop.orders o WHERE o.');
  await page.keyboard.press('ControlOrMeta+Space');
  const suggest = page.locator('.suggest-widget.visible');
  await expect(suggest).toContainText('customer_id');
  const box = (await suggest.boundingBox())!;
  const editorBox = (await page.locator('.query-editor').boundingBox())!;
  // Taller than the editor it belongs to: a popup kept inside the editor's box would be cut.
  expect(box.height).toBeGreaterThan(editorBox.height);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  expect(box.y + box.height).toBeLessThanOrEqual(720);
  // Its corners are the popup's own pixels: nothing clips or covers it.
  const corners = [
    [box.x + 4, box.y + 4],
    [box.x + box.width - 4, box.y + 4],
    [box.x + 4, box.y + box.height - 4],
    [box.x + box.width - 4, box.y + box.height - 4],
  ];
  for (const [x, y] of corners) {
    const hit = await page.evaluate(
      ([px, py]) => Boolean(document.elementFromPoint(px, py)?.closest('.suggest-widget')),
      [x, y],
    );
    expect(hit, `${x},${y}`).toBe(true);
  }
  await screenshot(page, 'query-11-completion-short-editor');
  await page.keyboard.press('Escape');
});
