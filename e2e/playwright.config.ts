import { defineConfig } from '@playwright/test';

/**
 * Browser tests of the workbench against `adaptive-gateway serve --workbench` (started by global-setup
 * on a copy of the example workspace), in Debian's Chromium: `npx playwright install` cannot download
 * here. CHROMIUM_PATH points elsewhere when needed.
 */
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  globalSetup: './global-setup.ts',
  outputDir: '../test-results/e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  workers: 1,
  fullyParallel: false,
  // One retry in CI, reported as "flaky" in the output: on a shared 2-core runner a server-side refresh can
  // outlast an expectation's 15 s (seen once in workbench.spec.ts's $ref test, which passes alone). A test
  // that fails twice still fails the run.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1600, height: 1000 },
    colorScheme: 'light',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
