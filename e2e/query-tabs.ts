import { expect, type Page } from '@playwright/test';

const url = () => process.env.WORKBENCH_URL!;

/**
 * Opens the workbench with a new SQL query tab: with no panels around the editor area, or in the layout a
 * first start has (`layout: 'default'`). The query state a test could inherit (open query tabs, history,
 * jobs, chart choices) is cleared on the page's first load only, so a reload within the test shows what the
 * workbench kept.
 */
export async function openQueryTab(page: Page, layout: 'no panels' | 'default' = 'no panels'): Promise<void> {
  await page.addInitScript((editorOnly) => {
    if (sessionStorage.getItem('e2e-query-state-cleared')) return;
    sessionStorage.setItem('e2e-query-state-cleared', '1');
    if (editorOnly)
      localStorage.setItem('adaptive-workbench:layout', JSON.stringify({ bottomVisible: false, sideVisible: false }));
    else localStorage.removeItem('adaptive-workbench:layout');
    for (const key of Object.keys(localStorage))
      if (key.startsWith('adaptive-workbench:query-')) localStorage.removeItem(key);
  }, layout === 'no panels');
  await page.goto(url());
  await page.getByRole('button', { name: 'New query' }).click();
  await expect(page.locator('.query-console')).toBeVisible();
}

/** Replaces the text of the active query tab's editor. */
export async function typeQuery(page: Page, text: string): Promise<void> {
  const editor = page.locator('.query-editor .monaco-editor');
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+KeyA');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}
