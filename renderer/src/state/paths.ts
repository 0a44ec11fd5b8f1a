/** Workspace paths: `/`-separated, relative to the workspace (`specs/orders.openapi.yaml`, `health.yaml`). */

/** The folder that holds `path`; `''` for an entry at the top of the workspace. */
export function parentOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

/** True when `path` is `folder` itself or lies inside it. */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** Where `path` is once `from` has been renamed to `to`: moved when it is `from` or inside it, else unchanged. */
export function movedPath(path: string, from: string, to: string): string {
  return isWithin(path, from) ? to + path.slice(from.length) : path;
}

/**
 * Whether the workspace API lets `path` be renamed or deleted: the area folders (`specs`, `handlers`,
 * `query`) stay, their contents and `health.yaml` may change. The server decides; this only spares a
 * request it would refuse.
 */
export function isChangeable(path: string): boolean {
  return path.includes('/') || path === 'health.yaml';
}
