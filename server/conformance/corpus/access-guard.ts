/**
 * Preloaded (`node --import`) into the corpus runner's child process, and therefore into every worker
 * thread it starts (workers inherit the parent's `execArgv`), so it watches the spec loader's worker.
 *
 * In worker threads it records every file-system access outside the allowed folders and every
 * network attempt, one JSON line per event in `$CORPUS_GUARD_LOG`:
 * - reading a file or folder outside `$CORPUS_GUARD_ROOT` (the spec's folder) is recorded and refused
 *   (EACCES); `$CORPUS_GUARD_ALLOW` lists folders the runtime itself reads (the installation, Node);
 * - checking a path (stat, realpath, exists) outside is recorded as a probe and allowed: it reveals
 *   at most whether a path exists;
 * - any network attempt (sockets, DNS, http, fetch) is recorded and refused.
 * The main thread is not watched: it only runs the runner, the loader runs in workers.
 */
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

/** One recorded access. */
export interface GuardEvent {
  kind: 'read' | 'probe' | 'network';
  target: string;
  /** The function that was called, e.g. `fs.readFileSync`. */
  via: string;
  blocked: boolean;
}

const logFile = process.env.CORPUS_GUARD_LOG;
const root = process.env.CORPUS_GUARD_ROOT;

if (!isMainThread && logFile && root)
  install(logFile, root, (process.env.CORPUS_GUARD_ALLOW ?? '').split(path.delimiter).filter(Boolean));

function install(log: string, specsRoot: string, allowed: string[]): void {
  const append = fs.appendFileSync.bind(fs);
  const record = (event: GuardEvent) => append(log, `${JSON.stringify(event)}\n`);
  const roots = [specsRoot, ...allowed].map((dir) => path.resolve(dir));
  const inside = (target: string) =>
    roots.some((dir) => {
      const relative = path.relative(dir, target);
      return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
    });
  const targetOf = (value: unknown): string | undefined => {
    if (typeof value === 'string') return path.resolve(value);
    if (Buffer.isBuffer(value)) return path.resolve(value.toString());
    if (value instanceof URL && value.protocol === 'file:') return path.resolve(fileURLToPath(value));
    return undefined;
  };
  const refusal = (via: string, target: string) =>
    Object.assign(new Error(`EACCES: the conformance guard refused ${via} of ${target}`), { code: 'EACCES' });

  type AnyFunction = (...args: unknown[]) => unknown;
  const wrapFs = (owner: Record<string, unknown>, name: string, kind: 'read' | 'probe', label: string) => {
    const original = owner[name] as AnyFunction | undefined;
    if (typeof original !== 'function') return;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const target = targetOf(args[0]);
      if (target !== undefined && !inside(target)) {
        record({ kind, target, via: label, blocked: kind === 'read' });
        if (kind === 'read') throw refusal(label, target);
      }
      return original.apply(this, args);
    };
    Object.assign(wrapped, original);
    owner[name] = wrapped;
  };
  const fsObject = fs as unknown as Record<string, unknown>;
  for (const name of [
    'readFileSync',
    'openSync',
    'readdirSync',
    'opendirSync',
    'createReadStream',
    'readFile',
    'open',
    'readdir',
    'opendir',
  ]) {
    wrapFs(fsObject, name, 'read', `fs.${name}`);
  }
  for (const name of ['statSync', 'lstatSync', 'existsSync', 'accessSync', 'stat', 'lstat', 'exists', 'access'])
    wrapFs(fsObject, name, 'probe', `fs.${name}`);
  // The wrapper keeps realpathSync.native (copied by wrapFs), which is then wrapped on its own.
  wrapFs(fsObject, 'realpathSync', 'probe', 'fs.realpathSync');
  wrapFs(fs.realpathSync as unknown as Record<string, unknown>, 'native', 'probe', 'fs.realpathSync.native');
  wrapFs(fsObject, 'realpath', 'probe', 'fs.realpath');
  const promises = fs.promises as unknown as Record<string, unknown>;
  for (const name of ['readFile', 'open', 'readdir', 'opendir']) wrapFs(promises, name, 'read', `fs.promises.${name}`);
  for (const name of ['stat', 'lstat', 'access', 'realpath']) wrapFs(promises, name, 'probe', `fs.promises.${name}`);

  const refuseNetwork = (owner: Record<string, unknown>, name: string, label: string) => {
    if (typeof owner[name] !== 'function') return;
    owner[name] = (...args: unknown[]) => {
      const first = args[0];
      const target =
        typeof first === 'string' || first instanceof URL
          ? String(first)
          : first && typeof first === 'object'
            ? JSON.stringify({
                host: (first as Record<string, unknown>).host ?? (first as Record<string, unknown>).hostname,
                port: (first as Record<string, unknown>).port,
                path: (first as Record<string, unknown>).path,
              })
            : String(first);
      record({ kind: 'network', target, via: label, blocked: true });
      throw new Error(`the conformance guard refused network access (${label} ${target})`);
    };
  };
  refuseNetwork(net.Socket.prototype as unknown as Record<string, unknown>, 'connect', 'net.Socket.connect');
  for (const name of ['connect', 'createConnection'])
    refuseNetwork(net as unknown as Record<string, unknown>, name, `net.${name}`);
  refuseNetwork(tls as unknown as Record<string, unknown>, 'connect', 'tls.connect');
  for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny']) {
    refuseNetwork(dns as unknown as Record<string, unknown>, name, `dns.${name}`);
    refuseNetwork(dns.promises as unknown as Record<string, unknown>, name, `dns.promises.${name}`);
  }
  for (const [module, label] of [
    [http, 'http'],
    [https, 'https'],
  ] as const) {
    refuseNetwork(module as unknown as Record<string, unknown>, 'request', `${label}.request`);
    refuseNetwork(module as unknown as Record<string, unknown>, 'get', `${label}.get`);
  }
  refuseNetwork(globalThis as unknown as Record<string, unknown>, 'fetch', 'fetch');
  syncBuiltinESMExports();
}
