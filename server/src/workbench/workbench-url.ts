import type { AddressInfo } from 'node:net';
// From core, not renderer-static: the command imports this before the server, and renderer-static pulls in the gateway.
import { routeAreas } from '../core/routes.js';

/**
 * The URL a user opens to reach the workbench, with the token: `http://127.0.0.1:8080/workbench/?token=...`.
 * A wildcard listen address (`0.0.0.0`, `::`) is shown as the loopback address, which always reaches it.
 */
export function workbenchUrl(address: AddressInfo | string | null, host: string, token: string): string {
  const port = typeof address === 'object' && address !== null ? address.port : undefined;
  const shownHost = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const shownPort = port === undefined ? '' : `:${port}`;
  return `http://${shownHost}${shownPort}${routeAreas.workbenchUi.prefix}/?token=${encodeURIComponent(token)}`;
}
