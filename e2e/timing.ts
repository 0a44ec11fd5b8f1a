import fs from 'node:fs';
import path from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';

const measurementsFile = path.resolve('test-results', 'e2e-measurements.json');

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}

/** How many times a timed step is repeated: the median of these is what is recorded. */
export const timedRuns = 7;

/**
 * Records a measurement, the median of several runs: printed (with every run) for the run's log and kept in
 * test-results/e2e-measurements.json.
 */
export function measure(name: string, runs: number[]): void {
  const ms = median(runs);
  console.log(`[measure] ${name}: ${ms} ms (median of ${runs.length}: ${runs.join(', ')})`);
  const all = fs.existsSync(measurementsFile)
    ? (JSON.parse(fs.readFileSync(measurementsFile, 'utf8')) as Record<string, number>)
    : {};
  all[name] = ms;
  fs.mkdirSync(path.dirname(measurementsFile), { recursive: true });
  fs.writeFileSync(measurementsFile, `${JSON.stringify(all, null, 2)}\n`);
}

/**
 * Records, in the page's own clock, when each selector first matches: milliseconds since navigation
 * start when installed before the page loads, else since this was evaluated in the page. Precise where
 * Playwright's polling of `expect` is not.
 */
export function recordAppearance(selectors: string[]): void {
  const times: Record<string, number> = {};
  const start = document.readyState === 'loading' ? 0 : performance.now();
  const check = () => {
    for (const selector of selectors)
      if (times[selector] === undefined && document.querySelector(selector))
        times[selector] = Math.round(performance.now() - start);
    if (Object.keys(times).length === selectors.length) observer.disconnect();
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  (window as unknown as { appeared: Record<string, number> }).appeared = times;
}

/** When `selector` first matched, as {@link recordAppearance} recorded it (waits until it has). */
export async function appearedAfter(page: Page, selector: string): Promise<number> {
  const handle = await page.waitForFunction(
    (s) => (window as unknown as { appeared?: Record<string, number> }).appeared?.[s],
    selector,
  );
  return (await handle.jsonValue()) as number;
}

const shownSelector = '.editor-host .monaco-editor .view-line';
const dirtySelector = '.tab.active.dirty';

/**
 * Opens the workbench at `url` in `page` (a new browser profile: no tabs to restore), opens a spec from
 * the explorer and types into it. Returns, from navigation start, when the file showed in Monaco and when
 * the keystroke was taken (the test clicks and types as soon as it can).
 */
export async function loadToEditable(page: Page, url: string): Promise<{ shown: number; editable: number }> {
  await page.addInitScript(recordAppearance, [shownSelector, dirtySelector]);
  await page.goto(url);
  await page.locator('.tree-row[data-path="specs/library-api.openapi.yaml"]').click();
  await page.locator('.editor-host .monaco-editor .view-lines').click();
  await page.keyboard.type('x');
  await expect(page.locator(dirtySelector)).toBeVisible();
  return { shown: await appearedAfter(page, shownSelector), editable: await appearedAfter(page, dirtySelector) };
}

/**
 * {@link loadToEditable} in fresh browser profiles, {@link timedRuns} times: the medians are recorded, named with
 * `when` (the server's state, e.g. "with a 500-event backlog").
 */
export async function timePageLoads(browser: Browser, url: string, when: string): Promise<void> {
  const loads: Array<{ shown: number; editable: number }> = [];
  for (let run = 0; run < timedRuns; run++) {
    const context = await browser.newContext();
    loads.push(await loadToEditable(await context.newPage(), url));
    await context.close();
  }
  measure(
    `page load to editor showing the file, ${when}`,
    loads.map((l) => l.shown),
  );
  measure(
    `page load to editable editor (first keystroke taken), ${when}`,
    loads.map((l) => l.editable),
  );
}
