import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildServer } from '../../main/app.js';
import { loadConfig } from '../../core/config.js';
import { isAuthenticated } from '../auth-plugin.js';
import { makeWorkspace, removeWorkspace } from '../../test-support/workspace.js';
import { tokenExchangeGrant, startIdentityProvider, type IdentityProviderFixture } from './oidc-fixture.js';

const librarySpec = fs.readFileSync(
  path.resolve(import.meta.dirname, '../../../../specs/library-api.openapi.yaml'),
  'utf8',
);

/** What the probe routes answer: what the authentication hook left on the request. */
export interface WhoAmI {
  auth: Record<string, unknown> | null;
  upstreamToken: string | null;
  authorization: string | null;
  /** What {@link isAuthenticated} says about the request. */
  authenticated: boolean;
}

export interface AuthServer {
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * A whole server (buildServer) with authentication on, the library API spec loaded, and two probe routes
 * registered AFTER the authentication hook (`/api/adaptive/_whoami`, `/api/v1/query/_whoami`) that
 * answer what the hook left on the request; `addRoutes` may register more before the server is ready.
 */
export async function startAuthServer(
  env: Record<string, string>,
  addRoutes?: (app: FastifyInstance) => Promise<void>,
): Promise<AuthServer> {
  const workspace = makeWorkspace({ 'specs/library-api.openapi.yaml': librarySpec });
  let app: FastifyInstance;
  try {
    const config = loadConfig(
      { HOT_RELOAD: 'false', LOG_LEVEL: 'silent', AUTH_ENABLED: 'true', ...env },
      { workspace },
    );
    app = await buildServer(config, { logger: pino({ level: 'silent' }) });
  } catch (error) {
    removeWorkspace(workspace);
    throw error;
  }
  for (const url of ['/api/adaptive/_whoami', '/api/v1/query/_whoami']) {
    app.get(url, async (request): Promise<WhoAmI> => ({
      auth: request.auth,
      upstreamToken: request.upstreamToken,
      authorization: request.headers.authorization ?? null,
      authenticated: isAuthenticated(request),
    }));
  }
  await addRoutes?.(app);
  await app.ready();
  await app.gateway.start();
  return {
    app,
    close: async () => {
      await app.close();
      removeWorkspace(workspace);
    },
  };
}

export const gatewayClient = { clientId: 'adaptive-gateway', clientSecret: 'gateway-secret' };
export const externalClient = { clientId: 'partner-app', clientSecret: 'partner-secret' };

/** The platform provider (with the gateway's client) and a trusted external provider. */
export async function startProviders(): Promise<{
  platform: IdentityProviderFixture;
  external: IdentityProviderFixture;
}> {
  const platform = await startIdentityProvider({
    realm: 'platform',
    audience: gatewayClient.clientId,
    users: { alice: 'alice:has:colons', carol: 'carol-password' },
    clients: [{ ...gatewayClient, grantTypes: ['client_credentials', 'password', tokenExchangeGrant] }],
  });
  const external = await startExternalProvider('partner');
  platform.exchangeTrust.set(external.issuer, external);
  platform.exchangeClients.add(gatewayClient.clientId);
  return { platform, external };
}

/** An external provider with the partner's client and users bob and dave. */
export function startExternalProvider(realm: string): Promise<IdentityProviderFixture> {
  return startIdentityProvider({
    realm,
    audience: 'partner-api',
    users: { bob: 'bob-password', dave: 'dave-password' },
    clients: [{ ...externalClient, grantTypes: ['client_credentials', 'password'] }],
  });
}

/** The environment of a server that uses `platform` as its identity provider. */
export function platformEnv(
  platform: IdentityProviderFixture,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    IDP_SERVER_URL: platform.serverUrl,
    IDP_REALM: platform.realm,
    IDP_CLIENT_ID: gatewayClient.clientId,
    IDP_CLIENT_SECRET: gatewayClient.clientSecret,
    ...extra,
  };
}

/**
 * Sends raw bytes to a listening server and returns the status code and body: for requests that HTTP
 * clients would normalise or refuse to send (dot segments, doubled slashes, repeated headers).
 */
export async function rawRequest(
  port: number,
  text: string,
): Promise<{ status: number; body: string; headers: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: rest.join('\r\n\r\n') });
    });
    socket.write(text.endsWith('\r\n\r\n') ? text : `${text}\r\nConnection: close\r\n\r\n`);
  });
}
