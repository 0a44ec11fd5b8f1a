import type { WorkspaceEntry } from '../../../server/src/contract/index.js';

/** A file entry of the workspace listing at `path`, as the server lists it. */
export const file = (path: string): WorkspaceEntry => ({
  path,
  name: path.split('/').pop()!,
  type: 'file',
  mtimeMs: 0,
});

/** A folder entry of the workspace listing at `path`, holding `children`. */
export const folder = (path: string, children: WorkspaceEntry[]): WorkspaceEntry => ({
  path,
  name: path.split('/').pop()!,
  type: 'directory',
  mtimeMs: 0,
  children,
});
