import type { WorkspaceEntry } from '../../../server/src/contract/index.js';
import type { WorkbenchApi } from '../api/client.js';

/** What a delete took away, kept so that Undo can put it back: the folders (parents first) and the files' text. */
export interface DeletedEntry {
  path: string;
  folders: string[];
  files: Array<{ path: string; content: string }>;
}

/**
 * Reads what deleting `entry` would remove (a file, or a folder with everything in it) from the server, as it
 * is on disk now: the explorer deletes at once and offers Undo instead of asking first.
 */
export async function snapshotEntry(api: Pick<WorkbenchApi, 'read'>, entry: WorkspaceEntry): Promise<DeletedEntry> {
  const folders: string[] = [];
  const filePaths: string[] = [];
  const walk = (e: WorkspaceEntry) => {
    if (e.type === 'file') return void filePaths.push(e.path);
    folders.push(e.path);
    (e.children ?? []).forEach(walk);
  };
  walk(entry);
  const files = await Promise.all(filePaths.map(async (path) => ({ path, content: (await api.read(path)).content })));
  return { path: entry.path, folders, files };
}

/** Creates the deleted folders and files again, with the content they had. */
export async function restoreEntry(api: Pick<WorkbenchApi, 'create'>, deleted: DeletedEntry): Promise<void> {
  for (const folder of deleted.folders) await api.create(folder, 'directory');
  await Promise.all(deleted.files.map((file) => api.create(file.path, 'file', file.content)));
}
