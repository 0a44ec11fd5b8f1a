import { test } from '@playwright/test';
import { timePageLoads } from './timing.js';

// The runner's trace recording (a DOM snapshot around every action) would be timed with the page. This file
// sorts after the other specs, so the page loads from a server that has been busy: a full event backlog.
test.use({ trace: 'off' });

test('page load to an editable editor, in fresh browser profiles', async ({ browser }) => {
  await timePageLoads(browser, process.env.WORKBENCH_URL!);
});
