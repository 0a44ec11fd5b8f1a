import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from './logger.js';

/** A file, or a folder whose whole content is watched. */
export interface WatchTarget {
  path: string;
  type: 'file' | 'directory';
}

const skipped = /(^|[/\\])(node_modules|\.git)([/\\]|$)/;

const maxDepth = 8;

function isFolder(absolute: string): boolean {
  try {
    return fs.statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Watches files and folders (everything inside a folder, to a depth of 8) and calls `onChange` with the
 * absolute path of each file or folder changed, created or removed in them: once per burst of changes
 * of that path (debounced). The operating system's notifications (inotify, FSEvents) on each folder are
 * used as they come: chokidar drops a change whose mtime equals the previous one's, which a coarse file
 * system clock gives two quick writes, and Node's recursive mode on Linux loses a file once it was
 * replaced by rename (an atomic save). A folder watch names its entries, so it survives both. A file is
 * watched through its folder; a folder that does not exist yet is watched for from its parent.
 */
export function watchPaths(
  targets: WatchTarget[],
  onChange: (absolute: string) => void,
  log: Logger,
  debounceMs = 100,
): { close(): Promise<void> } {
  const timers = new Map<string, NodeJS.Timeout>();
  const folders = new Map<string, fs.FSWatcher>();
  const parents: fs.FSWatcher[] = [];
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

  const watchDir = (dir: string, listener: (name: string) => void): fs.FSWatcher | undefined => {
    try {
      const watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (name !== null) listener(name.toString());
      });
      watcher.on('error', () => watcher.close());
      return watcher;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') log.warn({ err: error, dir }, 'cannot watch folder');
      return undefined;
    }
  };

  /** Watches `dir` and its subfolders; follows subfolders created and removed later. */
  const watchTree = (dir: string, depth: number): void => {
    if (closed || depth > maxDepth || folders.has(dir) || skipped.test(dir)) return;
    const watcher = watchDir(dir, (name) => {
      const absolute = path.join(dir, name);
      changed(absolute);
      if (isFolder(absolute)) watchTree(absolute, depth + 1);
      else {
        folders.get(absolute)?.close();
        folders.delete(absolute);
      }
    });
    if (!watcher) return;
    folders.set(dir, watcher);
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      // Gone already: its parent reports that.
    }
    for (const entry of entries)
      if (entry.isDirectory() && !entry.name.startsWith('.')) watchTree(path.join(dir, entry.name), depth + 1);
  };

  for (const target of targets) {
    const absolute = path.resolve(target.path);
    const name = path.basename(absolute);
    if (target.type === 'directory') watchTree(absolute, 0);
    // The parent tells of the file itself, or of a folder appearing (then watched) or going.
    const parent = watchDir(path.dirname(absolute), (entry) => {
      if (entry !== name) return;
      if (target.type === 'directory' && isFolder(absolute)) watchTree(absolute, 0);
      else if (target.type === 'directory') {
        folders.get(absolute)?.close();
        folders.delete(absolute);
      }
      changed(absolute);
    });
    if (parent) parents.push(parent);
  }

  return {
    close: async () => {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      for (const watcher of [...folders.values(), ...parents]) watcher.close();
    },
  };
}
