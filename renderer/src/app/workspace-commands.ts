import { useCallback, useEffect, useState } from 'react';
import type { WorkspaceTree } from '../../../server/src/contract/index.js';
import type { WorkbenchApi } from '../api/client.js';
import { isChangeable, parentOf } from '../state/paths.js';
import { newFileContent } from '../state/templates.js';
import { restoreEntry, snapshotEntry, type DeletedEntry } from '../explorer/deleted-entries.js';
import { findEntry } from '../explorer/tree-keys.js';
import { useServerState, useWorkbench } from '../platform/workbench-context.js';

/**
 * The workspace tree, the path selected in it, and the file commands: create, rename and delete,
 * which keep open tabs and documents in step and report in the status bar.
 */
export function useWorkspaceCommands(api: WorkbenchApi) {
  const { documents, tabs, firstListing, openFile, notify, events } = useWorkbench();
  const reloadCount = useServerState((s) => s.reloadCount);
  const [tree, setTree] = useState<WorkspaceTree>();
  const [selected, select] = useState<string>();

  const showListing = useCallback(
    (listing: Promise<WorkspaceTree>) =>
      listing.then(setTree, (error: Error) => notify(`Cannot list the workspace: ${error.message}`, 'error')),
    [notify],
  );
  const refreshTree = useCallback(() => void showListing(api.tree()), [api, showListing]);

  // The listing the page started with first; then the tree follows every reload (the watcher reloads on
  // any change in specs/ and handlers/).
  useEffect(() => void showListing(firstListing), [showListing, firstListing]);
  useEffect(() => {
    if (reloadCount > 0) refreshTree();
  }, [refreshTree, reloadCount]);
  // And files created or deleted on disk in query/ too (once per burst of file events).
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = events.onFileChange(() => {
      clearTimeout(timer);
      timer = setTimeout(refreshTree, 300);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [events, refreshTree]);

  /** Runs a command; a failure becomes an error message in the status bar. */
  const attempt = async (failure: string, command: () => Promise<void>) => {
    try {
      await command();
    } catch (error) {
      notify(`${failure}: ${(error as Error).message}`, 'error');
    }
  };

  const create = (parent: string, name: string, kind: 'file' | 'directory') => {
    const path = `${parent}/${name}`;
    return attempt(`Cannot create ${path}`, async () => {
      await api.create(path, kind, kind === 'file' ? newFileContent(path) : undefined);
      refreshTree();
      select(path);
      if (kind === 'file') openFile(path);
      notify(`Created ${path}`);
    });
  };

  const rename = (from: string, newName: string) => {
    const parent = parentOf(from);
    const to = parent ? `${parent}/${newName}` : newName;
    return attempt(`Cannot rename ${from}`, async () => {
      await api.rename(from, to);
      documents.renamed(from, to);
      tabs.renamed(from, to);
      select(to);
      refreshTree();
      notify(`Renamed ${from} to ${to}`);
    });
  };

  /** Puts a deleted file or folder back and opens it again if it is a file. */
  const undoRemove = (deleted: DeletedEntry) =>
    attempt(`Cannot restore ${deleted.path}`, async () => {
      await restoreEntry(api, deleted);
      refreshTree();
      select(deleted.path);
      if (deleted.folders.length === 0) openFile(deleted.path);
      notify(`Restored ${deleted.path}`);
    });

  /** Deletes at once, without asking: the status bar offers Undo, which writes back what was on disk. */
  const remove = async (path: string) => {
    const entry = tree && findEntry(tree.entries, path);
    if (!isChangeable(path) || !entry) return;
    await attempt(`Cannot delete ${path}`, async () => {
      const deleted = await snapshotEntry(api, entry);
      await api.remove(path);
      tabs.removed(path);
      documents.close(path);
      select(undefined);
      refreshTree();
      notify(`Deleted ${path}`, 'info', { label: 'Undo', run: () => void undoRemove(deleted) });
    });
  };

  return { tree, refreshTree, selected, select, create, rename, remove };
}
