import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The entry module `entry` (relative to the caller, without extension) as a URL: the sibling `.ts` file
 * when the caller runs from TypeScript sources (tests, `tsx`), else the `.js` file in `dist/`.
 */
function entryUrl(callerUrl: string, entry: string): { url: URL; fromSources: boolean } {
  const fromSources = callerUrl.endsWith('.ts');
  return { url: new URL(`${entry}${fromSources ? '.ts' : '.js'}`, callerUrl), fromSources };
}

/**
 * Starts a worker thread on `entry`. From sources a worker has no loader for `.ts` files, so it first
 * registers tsx's and then imports its entry.
 *
 * @param callerUrl `import.meta.url` of the module that starts the worker
 * @param entry the entry's path relative to the caller, without extension (`./spec-worker`)
 */
export function startModuleWorker(callerUrl: string, entry: string, options: WorkerOptions): Worker {
  const { url, fromSources } = entryUrl(callerUrl, entry);
  if (!fromSources) return new Worker(url, options);
  const bootstrap =
    `import('tsx/esm/api').then((tsx) => { tsx.register(); return ` + `import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * Starts a Node.js child process on `entry` (no IPC channel unless `options.stdio` asks for one); from sources it
 * runs under tsx's loader. `execArgv` comes after the loader's flags.
 */
export function startModuleProcess(
  callerUrl: string,
  entry: string,
  args: string[],
  options: SpawnOptions & { execArgv?: string[] },
): ChildProcess {
  const { url, fromSources } = entryUrl(callerUrl, entry);
  const { execArgv = [], ...spawnOptions } = options;
  const nodeArgs = [...(fromSources ? ['--import', 'tsx'] : []), ...execArgv, fileURLToPath(url), ...args];
  return spawn(process.execPath, nodeArgs, spawnOptions);
}
