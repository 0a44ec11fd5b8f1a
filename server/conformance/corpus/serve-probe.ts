import fs from 'node:fs';
import path from 'node:path';
import type { GatewayInfo } from '../../src/contract/index.js';
import { createTempWorkspace } from '../temp-workspace.js';
import { startWorkspaceServer } from '../workspace-server.js';
import type { ServeProbe } from './corpus-protocol.js';

/** Largest bundled document that is served again (writing and reloading bigger ones costs more than it tells). */
const maxServedBytes = 32 * 1024 * 1024;

/**
 * Deploys a loaded spec's bundled document (every `$ref` internal) as `<name>.openapi.json` in a
 * fresh workspace, builds the server on it and sends one GET, to the first GET route of the listing
 * with `1` for every path parameter. `beforeLoad` runs with the specs folder before the server loads it.
 * Routes the gateway could not add (reported by the load) are listed with the answer.
 */
export async function serveOneGet(
  document: Record<string, unknown>,
  name: string,
  beforeLoad: (specsDir: string) => void,
): Promise<ServeProbe> {
  const text = JSON.stringify(document);
  if (text.length > maxServedBytes) return { skipped: `bundled document is ${text.length} bytes` };
  const workspace = createTempWorkspace('corpus-serve');
  try {
    const fileName = `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.openapi.json`;
    fs.writeFileSync(path.join(workspace.specsDir, fileName), text);
    beforeLoad(fs.realpathSync(workspace.specsDir));
    const server = await startWorkspaceServer(workspace.dir);
    try {
      const problems = server.firstLoad.errors.map((e) => e.message);
      if (!server.firstLoad.specs.includes(fileName))
        return { error: `the bundled document did not load again: ${problems[0] ?? 'not listed as loaded'}` };
      const listing = (await server.app.inject({ method: 'GET', url: '/api/adaptive/' })).json() as GatewayInfo;
      const endpoint = listing.endpoints.find((e) => e.method === 'GET');
      if (!endpoint) return { skipped: 'no GET operation' };
      const url = encodeURI(endpoint.path.replace(/\{[^}/]+\}/g, '1'));
      const response = await server.app.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      // A spec that loads can still have routes the route table refuses (ambiguous templates); they are reported.
      return { request: `GET ${url}`, status: response.statusCode, routesNotServed: problems };
    } finally {
      await server.close();
    }
  } finally {
    workspace.remove();
  }
}
