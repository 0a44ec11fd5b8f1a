import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { editor, replaceEditorText } from './editor-text.js';

const url = () => process.env.WORKBENCH_URL!;

/** A spec whose example (line 16) is `example`, against a schema whose `id` is an integer. */
const lintSpec = (example: string) => `openapi: 3.0.3
info:
  title: E2E lint
  version: 1.0.0
servers:
  - url: /api/adaptive/e2e-lint
paths:
  /items:
    get:
      responses:
        '200':
          description: The item
          content:
            application/json:
              schema: {type: object, properties: {id: {type: integer}}}
              example: ${example}
`;
const exampleLine = 16;

test('an example that contradicts its schema is marked at its line and listed in Problems; fixed, both go', async ({
  page,
}) => {
  // A new file, two saves, each linted after its load: on a busy machine this outlasts the default two minutes.
  test.slow();
  await page.goto(url());
  await page.locator('.tree-row[data-path="specs/library-api.openapi.yaml"]').click();
  await page.getByRole('button', { name: 'New file' }).click();
  const name = page.getByRole('textbox', { name: 'Name' });
  await name.fill('e2e-lint.openapi.yaml');
  await name.press('Enter');
  await expect(page.locator('.tab.active')).toHaveAttribute('data-path', 'specs/e2e-lint.openapi.yaml');
  await expect(editor(page).locator('.view-lines')).toContainText('openapi: 3.0.3');
  await replaceEditorText(page, lintSpec('{id: two}'));
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);

  await page.locator('.panel-tab[data-panel="problems"]').click();
  const row = page
    .locator('[data-panel-body="problems"] tr.problem', { hasText: 'lint(oas3-valid-media-example)' })
    .filter({ hasText: `specs/e2e-lint.openapi.yaml:${exampleLine}:` });
  await expect(row).toHaveCount(1, { timeout: 60_000 });
  await expect(row).toHaveClass(/\berror\b/);

  // The marker underlines the example's line, not another.
  const squiggle = editor(page).locator('.squiggly-error');
  await expect(squiggle).toHaveCount(1);
  const line = editor(page).locator('.view-line', { hasText: 'example: {id: two}' });
  const [mark, text] = [await squiggle.boundingBox(), await line.boundingBox()];
  expect(Math.abs(mark!.y - text!.y)).toBeLessThan(text!.height);

  await replaceEditorText(page, lintSpec('{id: 2}'));
  await page.keyboard.press('ControlOrMeta+S');
  await expect(page.locator('.tab.active.dirty')).toHaveCount(0);
  // The spec's other findings (no description, no contact) stay: they are warnings, not this error.
  await expect(row).toHaveCount(0, { timeout: 60_000 });
  await expect(squiggle).toHaveCount(0);
});

test('the first file opened shows its findings as markers, though they arrived before its editor', async ({ page }) => {
  test.slow();
  // Written before the page loads, so the file is linted (and its findings sent) before any editor exists.
  const file = path.join(process.env.WORKBENCH_WORKSPACE!, 'specs', 'e2e-first-open.openapi.yaml');
  await writeFile(file, lintSpec('{id: two}').replace('/e2e-lint', '/e2e-first-open'));
  try {
    await page.goto(url());
    await page.locator('.panel-tab[data-panel="problems"]').click();
    const row = page
      .locator('[data-panel-body="problems"] tr.problem', { hasText: 'lint(oas3-valid-media-example)' })
      .filter({ hasText: `specs/e2e-first-open.openapi.yaml:${exampleLine}:` });
    await expect(row).toHaveCount(1, { timeout: 60_000 });

    await page.locator('.tree-row[data-path="specs/e2e-first-open.openapi.yaml"]').click();
    await expect(editor(page).locator('.view-lines')).toContainText('example: {id: two}');
    await expect(editor(page).locator('.squiggly-error')).toHaveCount(1);
  } finally {
    await rm(file, { force: true });
  }
});
