import fs from 'node:fs';
import path from 'node:path';
import type { GatewayInfo } from '../../src/api-types.js';
import { createTempWorkspace } from '../temp-workspace.js';
import { startWorkspaceServer } from '../workspace-server.js';
import type { ServeProbe } from './corpus-protocol.js';

/** Largest bundled document that is served again (writing and reloading bigger ones costs more than it tells). */
const maxServedBytes = 32 * 1024 * 1024;

/**
 * Deploys a loaded spec's bundled document (every `$ref` internal) as `<name>.openapi.json` in a
 * fresh workspace, builds the server on it and sends one GET, to the first GET route of the listing
 * with `1` for every path parameter. `beforeLoad` runs with the specs folder before the server loads it.
 */
export async function serveOneGet(document: Record<string, unknown>, name: string, beforeLoad: (specsDir: string) => void): Promise<ServeProbe> {
  const text = JSON.stringify(document);
  if (text.length > maxServedBytes) return { skipped: `bundled document is ${text.length} bytes` };
  const workspace = createTempWorkspace('corpus-serve');
  try {
    fs.writeFileSync(path.join(workspace.specsDir, `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.openapi.json`), text);
    beforeLoad(fs.realpathSync(workspace.specsDir));
    const server = await startWorkspaceServer(workspace.dir);
    try {
      if (server.firstLoad.errors.length > 0) return { error: `the bundled document did not load again: ${server.firstLoad.errors[0].message}` };
      const listing = (await server.app.inject({ method: 'GET', url: '/api/adaptive/' })).json() as GatewayInfo;
      const endpoint = listing.endpoints.find((e) => e.method === 'GET');
      if (!endpoint) return { skipped: 'no GET operation' };
      const url = encodeURI(endpoint.path.replace(/\{[^}/]+\}/g, '1'));
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      return { request: `GET ${url}`, status: response.statusCode };
    } finally {
      await server.close();
    }
  } finally {
    workspace.remove();
  }
}
