import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A scratch workspace in a temporary folder with `specs/` and `handlers/` holding copies of the given
 * files. `file(kind, name)` is the path of a copy; `remove()` deletes the folder.
 */
export function scratchWorkspace({ specs = [], handlers = [] } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-workspace-'));
  const file = (kind, name) => path.join(dir, kind, name);
  for (const [kind, sources] of [
    ['specs', specs],
    ['handlers', handlers],
  ]) {
    fs.mkdirSync(path.join(dir, kind));
    for (const source of sources) fs.copyFileSync(source, file(kind, path.basename(source)));
  }
  return { dir, file, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The environment of a gateway on `workspace`: everything inside it, quiet logs, no watcher, no auth. */
export const gatewayEnv = (workspace) => ({
  WORKSPACE: workspace,
  SPECS_DIR: '',
  HANDLERS_DIR: '',
  QUERY_SOURCES: '',
  HEALTH_CONFIG: '',
  DATA_DIR: '',
  HOT_RELOAD: 'false',
  LOG_LEVEL: 'warn',
  AUTH_ENABLED: 'false',
  // The thread pool the adaptive-gateway command sets (server/bin/adaptive-gateway.cjs): Node's default of 4 could be
  // held whole by max_concurrent DuckDB queries (docs/query.md, "The thread pool").
  UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16',
});
