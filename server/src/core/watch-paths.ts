import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from './logger.js';

/** A file, or a folder whose whole content is watched. */
export interface WatchTarget {
  path: string;
  type: 'file' | 'directory';
}

const skipped = /(^|[/\\])(node_modules|\.git)([/\\]|$)/;

/**
 * Watches files and folders (everything inside a folder) and calls `onChange` with the absolute path of
 * each file or folder changed, created or removed in them: once per burst of changes of that path
 * (debounced). The operating system's notifications (inotify, FSEvents) are used as they come: chokidar
 * drops a change whose mtime equals the previous one's, which a coarse file system clock gives two quick
 * writes, and that would leave an editor showing the older of them. A file is watched through its
 * folder, which (unlike a watch on the file itself) survives a file replaced by rename, as editors'
 * atomic saves and Kubernetes' ConfigMap updates do; a folder that does not exist yet is watched for
 * from its parent.
 */
export function watchPaths(
  targets: WatchTarget[],
  onChange: (absolute: string) => void,
  log: Logger,
  debounceMs = 100,
): { close(): Promise<void> } {
  const timers = new Map<string, NodeJS.Timeout>();
  const watchers = new Set<fs.FSWatcher>();
  let closed = false;

  const changed = (absolute: string) => {
    if (closed || skipped.test(absolute)) return;
    clearTimeout(timers.get(absolute));
    const fire = () => {
      timers.delete(absolute);
      onChange(absolute);
    };
    timers.set(absolute, setTimeout(fire, debounceMs));
  };

  const start = (dir: string, recursive: boolean, listener: (name: string) => void): boolean => {
    try {
      const watcher = fs.watch(dir, { recursive, persistent: false }, (_event, name) => {
        if (name !== null) listener(name.toString());
      });
      watcher.on('error', (error) => log.warn({ err: error, dir }, 'file watcher error'));
      watchers.add(watcher);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.warn({ err: error, dir }, 'cannot watch folder');
      return false;
    }
  };

  for (const target of targets) {
    const absolute = path.resolve(target.path);
    const name = path.basename(absolute);
    const inFolder = (file: string) => changed(path.join(absolute, file));
    let folderWatched = target.type === 'directory' && start(absolute, true, inFolder);
    // The parent tells of the file itself, or of a folder appearing (then watched) or going.
    start(path.dirname(absolute), false, (file) => {
      if (file !== name) return;
      if (target.type === 'directory' && !folderWatched) folderWatched = start(absolute, true, inFolder);
      changed(absolute);
    });
  }

  return {
    close: async () => {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
