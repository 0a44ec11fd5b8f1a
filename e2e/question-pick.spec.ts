import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { screenshot } from './screenshots.js';

const url = () => process.env.WORKBENCH_URL!;
const queryDir = () => path.join(process.env.WORKBENCH_WORKSPACE!, 'query');
// Two tables of the demo lake folder that share a value: "Malmö" is a depot's city and a delivery's destination.
const tables = {
  'depots.csv': 'id,name,city\n1,Harbour,Malmö\n2,Fjord,Tromsø\n',
  'deliveries.csv': 'id,depot_id,dest_city\n1,1,Malmö\n2,2,Malmö\n3,1,Tromsø\n4,2,Malmö\n',
};

let originalSources = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(() => {
  for (const [name, text] of Object.entries(tables)) fs.writeFileSync(path.join(queryDir(), 'lake', name), text);
  // An edit of sources.yaml makes the question service read its hints and the sources' tables again (the new files).
  const sources = path.join(queryDir(), 'sources.yaml');
  originalSources = fs.readFileSync(sources, 'utf8');
  fs.writeFileSync(sources, `${originalSources}\n# depots and deliveries: question-pick.spec.ts\n`);
});

test.afterAll(() => {
  for (const name of Object.keys(tables)) fs.rmSync(path.join(queryDir(), 'lake', name), { force: true });
  fs.writeFileSync(path.join(queryDir(), 'sources.yaml'), originalSources);
});

async function ask(page: Page, question: string): Promise<void> {
  await page.getByLabel('Question').fill(question);
  await page.getByLabel('Question').press('ControlOrMeta+Enter');
}

test('an ambiguous question offers its candidates; the pick answers and is saved as a synonym', async ({ page }) => {
  await page.addInitScript(() => {
    localStorage.setItem(
      'adaptive-workbench:layout',
      JSON.stringify({ bottomHeight: 640, bottomVisible: true, bottomPanel: 'query', sideVisible: false }),
    );
    localStorage.removeItem('adaptive-workbench:query-texts');
  });
  await page.goto(url());
  // The Query panel opens a question tab in the editor area.
  await page.locator('.query-launcher').getByRole('button', { name: 'New question' }).click();
  const output = page.locator('.query-output');
  const grid = page.getByRole('grid', { name: 'Query results' });

  // Refused with both candidates, each a button.
  await ask(page, 'How many are in Malmö?');
  await expect(output.getByRole('alert')).toContainText('Did you mean');
  const picker = output.getByRole('group', { name: 'Did you mean' });
  await expect(picker.getByRole('button')).toHaveText(['deliveries.dest_city', 'depots.city'], { useInnerText: true });
  await screenshot(page, 'question-pick-01-candidates');

  // The pick asks again with that candidate: one depot is in Malmö (three deliveries go there).
  await picker.getByRole('button', { name: 'depots.city' }).click();
  await expect(output.getByRole('note')).toBeVisible();
  await expect(output.getByRole('alert')).toHaveCount(0);
  await expect(grid.getByRole('gridcell', { name: '1', exact: true }).last()).toBeVisible();
  await expect(page.locator('.generated-query').first()).toContainText('"depots"');

  // "Save as synonym" shows the exact YAML first; confirming writes sources.yaml through the workspace file API.
  await output.getByRole('button', { name: 'Save as synonym' }).click();
  const yaml = output.getByLabel('Synonym YAML');
  await expect(yaml).toHaveText(
    ['    - words: [malmö]', '      means: lake.depots.city', '      value: Malmö'].join('\n'),
  );
  await screenshot(page, 'question-pick-02-synonym-yaml');
  await output.getByRole('button', { name: 'Save to query/sources.yaml' }).click();
  await expect(output.getByRole('status')).toContainText('Saved to query/sources.yaml');
  const saved = fs.readFileSync(path.join(queryDir(), 'sources.yaml'), 'utf8');
  // The file keeps its comments and entries; the synonym is appended to natural_language.synonyms.
  expect(saved.startsWith(originalSources.split('\n# ')[0])).toBe(true);
  expect(saved).toContain('# depots and deliveries: question-pick.spec.ts');
  expect(saved).toContain('    - words: [malmö]\n      means: lake.depots.city\n      value: Malmö');

  // Asked again, the synonym settles it: the answer without a pick, and nothing more to save.
  await ask(page, 'How many are in Malmö?');
  await expect(output.getByRole('note')).toBeVisible();
  await expect(output.getByRole('alert')).toHaveCount(0);
  await expect(grid.getByRole('gridcell', { name: '1', exact: true }).last()).toBeVisible();
  await expect(output.getByRole('button', { name: 'Save as synonym' })).toHaveCount(0);
  await screenshot(page, 'question-pick-03-settled');
});
