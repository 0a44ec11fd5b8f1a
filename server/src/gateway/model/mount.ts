/** Mount paths: where a spec or handler is served under `/api/adaptive`. */

import { routeAreas } from '../../core/routes.js';

/** The gateway's prefix (core/routes.ts). */
export const gatewayPrefix = routeAreas.gateway.prefix;

/** Mounts that would be shadowed by the gateway's own system routes. */
export const reservedMounts = new Set(['actuator', 'openapi.json', 'swagger-ui']);

const mountPattern = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

/** True when `mount` is a usable mount path (segments of URL-safe characters, not a system route). */
export function isValidMount(mount: string): boolean {
  return mountPattern.test(mount) && !reservedMounts.has(mount.split('/')[0]) && !mount.split('/').includes('..');
}

/** `[scheme://host]/api/adaptive/<mount>[/]`: a `servers[0].url` that names a mount under the gateway. */
const serverUrlPattern = new RegExp(
  `^(?:[a-z][a-z0-9+.-]*://[^/]+)?${gatewayPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(.+?)/*$`,
  'i',
);

/**
 * The mount declared by a spec's `servers[0].url` when it has the form `/api/adaptive/<mount>`
 * (optionally with scheme and host); `undefined` otherwise.
 */
export function mountFromServers(servers: unknown): string | undefined {
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  const url = (servers[0] as { url?: unknown })?.url;
  if (typeof url !== 'string') return undefined;
  const match = serverUrlPattern.exec(url.trim());
  if (!match || !isValidMount(match[1])) return undefined;
  return match[1];
}

/** `library-api.openapi.yaml` -> `library-api`; `petstore.json` -> `petstore`. */
export function specBaseName(fileName: string): string {
  return fileName.replace(/\.openapi\.(ya?ml|json)$/i, '').replace(/\.(ya?ml|json)$/i, '');
}

/**
 * The files of the specs folder the spec loader reads: every `.yaml`, `.yml` or `.json` file that is not
 * hidden. Each one is a spec when it is an OpenAPI 3.x document; any other is skipped with a reason.
 */
export function isSpecFile(fileName: string): boolean {
  return /\.(ya?ml|json)$/i.test(fileName) && !fileName.startsWith('.');
}

/** `<name>.openapi.yaml|yml|json`: a file named as a spec, so a document that is not OpenAPI 3.x in it is an error,
 * not skipped. */
export function isNamedAsSpec(fileName: string): boolean {
  return /\.openapi\.(ya?ml|json)$/i.test(fileName);
}

/**
 * The path a spec's routes are served under when it is mocked at its own paths (`serve petstore.yaml`):
 * the path of its `servers[0].url`, with or without scheme and host, as a mount without slashes at
 * either end (`https://petstore.io/v1/` -> `v1`); `''` (the root) when it declares no usable server.
 */
export function mountFromServerPath(servers: unknown): string {
  const url = Array.isArray(servers) ? (servers[0] as { url?: unknown } | undefined)?.url : undefined;
  if (typeof url !== 'string') return '';
  const match = /^(?:[a-z][a-z0-9+.-]*:)?(?:\/\/[^/]*)?([^?#]*)/i.exec(url.trim());
  const mount = (match?.[1] ?? '').replace(/^\/+|\/+$/g, '');
  return mount === '' || /\{/.test(mount) || !mountPattern.test(mount) || mount.split('/').includes('..') ? '' : mount;
}

/**
 * The mount of a handler file, per the service document: strip `_handler` and the extension, then
 * turn underscores into hyphens (`library_api_handler.ts` -> `library-api`).
 */
export function handlerMount(fileName: string): string | undefined {
  const match = /^(.+)_handler\.(ts|mts|js|mjs|py)$/.exec(fileName);
  return match ? match[1].replace(/_/g, '-') : undefined;
}
