/** Mount paths: where a spec or handler is served under `/api/adaptive`. */

export const gatewayPrefix = '/api/adaptive';

/** Mounts that would be shadowed by the gateway's own system routes. */
export const reservedMounts = new Set(['actuator', 'openapi.json', 'swagger-ui']);

const mountPattern = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

/** True when `mount` is a usable mount path (segments of URL-safe characters, not a system route). */
export function isValidMount(mount: string): boolean {
  return mountPattern.test(mount) && !reservedMounts.has(mount.split('/')[0]) && !mount.split('/').includes('..');
}

/**
 * The mount declared by a spec's `servers[0].url` when it has the form `/api/adaptive/<mount>`
 * (optionally with scheme and host); `undefined` otherwise.
 */
export function mountFromServers(servers: unknown): string | undefined {
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  const url = (servers[0] as { url?: unknown })?.url;
  if (typeof url !== 'string') return undefined;
  const match = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/]+)?\/api\/adaptive\/(.+?)\/*$/i.exec(url.trim());
  if (!match || !isValidMount(match[1])) return undefined;
  return match[1];
}

/** `library-api.openapi.yaml` -> `library-api`; `petstore.json` -> `petstore`. */
export function specBaseName(fileName: string): string {
  return fileName.replace(/\.openapi\.(ya?ml|json)$/i, '').replace(/\.(ya?ml|json)$/i, '');
}

/** The spec files of a directory listing: `<name>.openapi.yaml|yml|json`. */
export function isSpecFile(fileName: string): boolean {
  return /\.openapi\.(ya?ml|json)$/i.test(fileName) && !fileName.startsWith('.');
}

/**
 * The mount of a handler file, per the service document: strip `_handler` and the extension, then
 * turn underscores into hyphens (`library_api_handler.ts` -> `library-api`).
 */
export function handlerMount(fileName: string): string | undefined {
  const match = /^(.+)_handler\.(ts|mts|js|mjs|py)$/.exec(fileName);
  return match ? match[1].replace(/_/g, '-') : undefined;
}
