import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation, naming the rule,
 * its help text and the first elements it found (the issue 38 audit: "0 serious or critical on every view").
 */
export async function expectNoSeriousViolations(page: Page, view: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
  // Soft: one run lists what every view of a test still has.
  expect.soft(serious, `axe on ${view}`).toEqual([]);
}
