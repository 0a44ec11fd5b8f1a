import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '../core/logger.js';

/**
 * Watches the workspace directories and calls `onChange` once per burst of changes (debounced).
 * Any event counts: edits, new files, deletions, and Kubernetes ConfigMap updates, which swap the
 * `..data` symlink instead of touching the files themselves.
 */
export function watchWorkspace(
  dirs: string[],
  onChange: () => void,
  log: Logger,
  debounceMs = 100,
): { close(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(dirs, {
    ignoreInitial: true,
    ignored: (file) => /(^|[/\\])(node_modules|\.git)([/\\]|$)/.test(file),
    depth: 8,
  });
  watcher.on('all', (event, file) => {
    log.debug({ event, file }, 'workspace change');
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
  watcher.on('error', (error) => log.warn({ err: error }, 'file watcher error'));
  return {
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
