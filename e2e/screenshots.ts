import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

/** Where the screenshots go: kept as test artefacts beside Playwright's own output. */
const screenshotDir = path.resolve('test-results', 'screenshots');

/**
 * Saves `<name>-light.png` and `<name>-dark.png` of the page as it is now. The workbench follows the
 * system colour scheme live, so switching the emulated scheme redraws it in place; the page is left in
 * the scheme it had.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const dark = await page.evaluate(() => window.matchMedia('(prefers-color-scheme: dark)').matches);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // Two frames: one for the media change to restyle, one for Monaco's theme switch to paint.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
}
