import fs from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceFileChange } from '../contract/index.js';
import type { Logger } from '../core/logger.js';
import { watchPaths } from '../core/watch-paths.js';
import type { EventHub } from './event-hub.js';
import { contentVersion, maxEditableBytes } from './workspace-files.js';
import type { WorkspaceArea } from './workspace-paths.js';

/** The workspace path of a file system path inside one of the areas; undefined outside them or when hidden. */
export function workspacePathOf(areas: WorkspaceArea[], absolute: string): string | undefined {
  for (const area of areas) {
    if (area.type === 'file') {
      if (absolute === area.root) return area.name;
      continue;
    }
    const relative = path.relative(area.root, absolute);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    const segments = relative.split(path.sep);
    // Hidden names (our own temp files, `.git`, Kubernetes' `..data`) are never workspace files.
    if (segments.some((segment) => segment.startsWith('.') || segment === 'node_modules')) return undefined;
    return [area.name, ...segments].join('/');
  }
  return undefined;
}

/** What a file is on disk now: its version, or none when it is gone (or a folder, or too large to edit). */
async function changeOf(workspacePath: string, absolute: string): Promise<WorkspaceFileChange | undefined> {
  const stat = await fs.stat(absolute).catch(() => undefined);
  if (!stat) return { path: workspacePath };
  if (!stat.isFile() || stat.size > maxEditableBytes) return undefined;
  const bytes = await fs.readFile(absolute).catch(() => undefined);
  return bytes ? { path: workspacePath, version: contentVersion(bytes) } : { path: workspacePath };
}

/**
 * Watches the workspace's areas and publishes a `file` event (path and the content's version now, or
 * none when the file is gone) for each file changed on disk, by this server's API or anything else
 * (another editor, git, a generator). A burst of changes of one path gives one event, and the events
 * go out in the order of the changes.
 */
export function publishFileChanges(
  areas: WorkspaceArea[],
  hub: EventHub,
  log: Logger,
  debounceMs = 50,
): { close(): Promise<void> } {
  let last: Promise<void> = Promise.resolve();
  const watcher = watchPaths(
    areas.map((area) => ({ path: area.root, type: area.type })),
    (absolute) => {
      const workspacePath = workspacePathOf(areas, absolute);
      if (workspacePath === undefined) return;
      last = last
        .then(() => changeOf(workspacePath, absolute))
        .then((change) => change && hub.publish('file', () => change))
        .catch((error: unknown) => log.warn({ err: error, file: workspacePath }, 'cannot read a changed file'));
    },
    log,
    debounceMs,
  );
  return {
    close: async () => {
      await watcher.close();
      await last;
    },
  };
}
