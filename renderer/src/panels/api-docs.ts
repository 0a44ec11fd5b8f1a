import type { WorkbenchDiagnostic } from '../../../server/src/contract/index.js';

/** The merged document of every mount. */
export const allSpecsUrl = '/api/adaptive/openapi.json';

/** The document the docs panel shows: every mount merged (`mount` empty), or one mount's own. */
export function documentUrl(mount: string): string {
  return mount === '' ? allSpecsUrl : `${allSpecsUrl}?mount=${encodeURIComponent(mount)}`;
}

/** The mounts of a merged document (the first segment of its paths, as the server groups them), in name order. */
export function mountsOf(documentJson: string): string[] {
  const paths = (JSON.parse(documentJson) as { paths?: Record<string, unknown> }).paths ?? {};
  return [
    ...new Set(
      Object.keys(paths)
        .map((p) => p.split('/')[1])
        .filter(Boolean),
    ),
  ].sort();
}

/** A file that cannot be loaded now while its last good version keeps serving, and when that version came. */
export interface LastGoodFile {
  path: string;
  loadedAt: Date;
}

/** The files the server says are serving their last good version, each once, in path order. */
export function lastGoodFiles(diagnostics: readonly WorkbenchDiagnostic[]): LastGoodFile[] {
  const files = new Map<string, LastGoodFile>();
  for (const d of diagnostics)
    if (d.lastGoodLoadedAt !== undefined && !files.has(d.path))
      files.set(d.path, { path: d.path, loadedAt: new Date(d.lastGoodLoadedAt) });
  return [...files.values()].sort((a, b) => a.path.localeCompare(b.path));
}
