// oidc-provider ships no types: the fixture's declarations, which the e2e project does not include by itself.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../server/src/auth/test-support/oidc-provider.d.ts" />
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { expect, test, type Page } from '@playwright/test';
import { startIdentityProvider, type IdentityProviderFixture } from '../server/src/auth/test-support/oidc-fixture.js';
import { expectNoSeriousViolations } from './axe.js';
import { screenshot } from './screenshots.js';
import { copyExampleWorkspace, freePort, startWorkbenchServer, type WorkbenchServer } from './server-process.js';

// The workbench with AUTH_ENABLED=true: local Basic users from a users file, bearer tokens of a real
// in-process OpenID provider (oidc-provider), and that provider's browser login with code + PKCE.

const root = fileURLToPath(new URL('..', import.meta.url));
const gatewayClient = { clientId: 'adaptive-gateway', clientSecret: 'gateway-secret' };
const workbenchClientId = 'adaptive-workbench';

let provider: IdentityProviderFixture;
let server: WorkbenchServer;
let workspace: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  workspace = copyExampleWorkspace('e2e-signin', ['specs', 'health.yaml']);
  fs.writeFileSync(path.join(workspace, 'users.htpasswd'), `ops:${bcrypt.hashSync('s3cret', 8)}\n`);
  // The redirect URI is registered at the provider before the server starts, so the port is chosen first.
  const port = await freePort();
  provider = await startIdentityProvider({
    realm: 'platform',
    audience: gatewayClient.clientId,
    users: { carol: 'carol-password' },
    clients: [
      { ...gatewayClient, grantTypes: ['password'] },
      {
        clientId: workbenchClientId,
        grantTypes: ['authorization_code'],
        redirectUris: [`http://127.0.0.1:${port}/workbench/`],
      },
    ],
  });
  server = await startWorkbenchServer({
    workspace,
    port,
    logFile: path.join(root, 'test-results', 'e2e-sign-in-server.log'),
    env: {
      AUTH_ENABLED: 'true',
      AUTH_USERS_FILE: 'users.htpasswd',
      IDP_SERVER_URL: provider.serverUrl,
      IDP_REALM: provider.realm,
      IDP_CLIENT_ID: gatewayClient.clientId,
      IDP_CLIENT_SECRET: gatewayClient.clientSecret,
      IDP_WORKBENCH_CLIENT_ID: workbenchClientId,
      HOT_RELOAD: 'false',
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.stop();
  if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
});

/** Opens the workbench with the health panel on the side (a fresh tab: no sign-in kept). */
async function openWorkbench(page: Page, sidePanel = 'health'): Promise<void> {
  await page.addInitScript((panel) => {
    localStorage.setItem(
      'adaptive-workbench:layout',
      JSON.stringify({ sideVisible: true, sidePanel: panel, sideWidth: 760 }),
    );
    localStorage.setItem('adaptive-workbench:health-interval', '0');
  }, sidePanel);
  await page.goto(server.url);
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Sign in to the gateway' });
const healthTree = (page: Page) => page.getByRole('treegrid', { name: 'Health components' });

test('Basic: status only before sign-in, a wrong password refused with its reason, then docs, health, files', async ({
  page,
}) => {
  await openWorkbench(page);
  // The server requires credentials: the workbench asks at once, with what this server accepts.
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByRole('button', { name: 'Sign in with platform' })).toBeVisible();
  await expect(dialog(page).getByRole('form', { name: 'User name and password' })).toBeVisible();
  await expect(dialog(page).getByRole('form', { name: 'Access token' })).toBeVisible();
  // Every field has a visible label of its own, not a placeholder that goes away once typing starts.
  for (const name of ['User name', 'Password', 'Access token (from your identity provider)'])
    await expect(
      dialog(page)
        .locator('label', { hasText: name })
        .getByRole('textbox')
        .or(dialog(page).locator('label', { hasText: name }).locator('input[type=password]')),
    ).toBeVisible();
  await screenshot(page, 'sign-in-01-view');
  await expectNoSeriousViolations(page, 'the sign-in dialog');
  await dialog(page).getByRole('button', { name: 'Not now' }).click();

  // Anonymous: /api/health answers the status only, and the panel says how to see more.
  await expect(page.getByLabel('Overall status')).toBeVisible();
  await expect(page.getByText('Status only: this server shows the components to signed-in users.')).toBeVisible();
  await expect(healthTree(page).locator('tbody tr')).toHaveCount(0);
  await screenshot(page, 'sign-in-02-health-status-only');

  // The docs panel's call is refused: the reason and a Sign in action, not raw 401 text.
  await page.getByRole('tab', { name: 'API docs' }).click();
  const refusal = page.getByRole('alert', { name: 'Refused call' });
  await expect(refusal).toContainText('GET /api/adaptive/openapi.json needs sign-in (401)');
  await expect(refusal).toContainText('Authentication is required');
  await screenshot(page, 'sign-in-03-refused-call');
  await refusal.getByRole('button', { name: 'Sign in' }).click();

  const form = dialog(page).getByRole('form', { name: 'User name and password' });
  await form.getByLabel('User name').fill('ops');
  await form.getByLabel('Password').fill('wrong');
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog(page).getByRole('alert')).toHaveText('Invalid username or password');
  await screenshot(page, 'sign-in-04-wrong-password');

  await form.getByLabel('Password').fill('s3cret');
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByLabel('Signed in')).toContainText('Signed in as ops');
  await expect(refusal).toBeHidden();
  // The docs load with the credentials, and Swagger UI shows the routes.
  await expect(
    page.locator('.swagger-host .opblock-summary-path[data-path="/library-api/books"]').first(),
  ).toBeVisible();
  // Try it out carries the sign-in too (Swagger UI's requestInterceptor): the protected route answers.
  const docs = page.locator('.swagger-host');
  const block = docs.locator('.opblock', {
    has: page.locator('.opblock-summary-path[data-path="/library-api/books"]'),
  });
  await block.first().locator('.opblock-summary').click();
  await block.first().getByRole('button', { name: 'Try it out' }).click();
  await block.first().getByRole('button', { name: 'Execute' }).click();
  const response = block.first().locator('.live-responses-table');
  await expect(response.locator('tr.response td.response-col_status')).toContainText('200');
  await expect(response).toContainText('The Pragmatic Programmer');
  // Swagger UI's own `main` does not make a second main landmark.
  await expect(page.getByRole('main')).toHaveCount(1);
  await screenshot(page, 'sign-in-05-docs-signed-in');

  await page.getByRole('tab', { name: 'Health' }).click();
  await expect(healthTree(page).locator('tr[data-path="gateway"]')).toBeVisible();
  await expect(page.getByText('Status only')).toBeHidden();
  await screenshot(page, 'sign-in-06-health-details');

  // Files use the workbench token, never the user's credentials.
  await page.locator('.tree-row[data-path="specs/library-api.openapi.yaml"]').click();
  await expect(page.locator('.editor-host .monaco-editor .view-lines')).toContainText('openapi: 3.0.3');

  // The session is the tab's: a reload keeps it, sign-out ends it and health is status-only again.
  await page.reload();
  await expect(page.getByLabel('Signed in')).toContainText('Signed in as ops');
  await page.getByLabel('Signed in').getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByText('Status only: this server shows the components to signed-in users.')).toBeVisible();
});

test('a pasted bearer token signs in; a token that is not one is refused with the reason', async ({ page }) => {
  await openWorkbench(page);
  const form = dialog(page).getByRole('form', { name: 'Access token' });
  await form.getByLabel('Access token').fill('Bearer not-a-jwt');
  await form.getByRole('button', { name: 'Use token' }).click();
  await expect(dialog(page).getByRole('alert')).toHaveText('Invalid bearer token: it is not a signed JWT');

  const accessToken = await provider.accessToken(gatewayClient.clientId, gatewayClient.clientSecret, 'carol');
  await form.getByLabel('Access token').fill(`Bearer ${accessToken}`);
  await form.getByRole('button', { name: 'Use token' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByLabel('Signed in')).toContainText('Signed in as carol');
  await expect(healthTree(page).locator('tr[data-path="gateway"]')).toBeVisible();
});

test("the identity provider's login (authorization code + PKCE) comes back signed in", async ({ page }) => {
  await openWorkbench(page, 'docs');
  // An answer this tab did not ask for (a code planted in a link) is refused, and its code not used.
  await page.goto(new URL('/workbench/?code=planted&state=forged', server.url).href);
  await expect(dialog(page).getByRole('alert')).toHaveText('No sign-in was started in this tab: sign in again.');
  expect(page.url()).not.toMatch(/code=|state=/);

  await dialog(page).getByRole('button', { name: 'Sign in with platform' }).click();
  // The provider's own login form, on its own origin.
  await expect(page).toHaveURL(new RegExp(`^${provider.serverUrl}/`));
  await page.locator('input[name="login"]').fill('dave');
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();

  await expect(page).toHaveURL(/\/workbench\/$/);
  await expect(page.getByLabel('Signed in')).toContainText('Signed in as dave');
  expect(page.url()).not.toMatch(/code=|state=/);
  await expect(
    page.locator('.swagger-host .opblock-summary-path[data-path="/library-api/books"]').first(),
  ).toBeVisible();
  await screenshot(page, 'sign-in-07-provider-login');
});
