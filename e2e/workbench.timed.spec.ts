import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { eventBacklogCapacity, fillEventBacklog } from './event-backlog.js';
import { copyExampleWorkspace, startWorkbenchServer } from './server-process.js';
import { timePageLoads } from './timing.js';

// The runner's trace recording (a DOM snapshot around every action) would be timed with the page.
test.use({ trace: 'off' });

// A server of its own, so what it has to replay to a new page does not depend on which tests ran before: the
// page loads once from a server with an empty event backlog, then from one with a full backlog.
test('page load to an editable editor, in fresh browser profiles, without and with an event backlog', async ({
  browser,
}) => {
  const workspace = copyExampleWorkspace('timed');
  const server = await startWorkbenchServer({
    workspace,
    logFile: path.resolve('test-results', 'timed-server.log'),
  });
  try {
    await timePageLoads(browser, server.url, 'on a just-started server');
    expect(await fillEventBacklog(server.url)).toBe(eventBacklogCapacity);
    await timePageLoads(browser, server.url, `with a ${eventBacklogCapacity}-event backlog`);
  } finally {
    await server.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
});
