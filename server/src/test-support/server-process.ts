import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const root = path.resolve(import.meta.dirname, '../../..');

/** A `serve` process on a free loopback port, from the TypeScript sources. */
export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** Resolves with the exit code once the process has ended. */
  exit: Promise<number | null>;
}

/** Starts `adaptive-gateway serve` from the sources on a free port; resolves once it listens. */
export function serveFromSources(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/cli.ts'), 'serve', '--port', '0'], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', HOT_RELOAD: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start')), 60_000);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1], exit });
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

/** Polls readiness until it answers 200. */
export async function waitUntilReady(base: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const response = await fetch(`${base}/api/adaptive/actuator/health/readiness`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('never ready');
}
