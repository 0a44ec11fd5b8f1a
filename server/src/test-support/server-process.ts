import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main/cli.ts');

/** A server started as its own process with `adaptive-gateway serve` (from source, through tsx). */
export interface ServerProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The exit code (null after a signal), once the process has ended. */
  exit: Promise<number | null>;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Everything it wrote to stdout so far (its log lines). */
  stdout(): string;
}

/**
 * Starts `serve --port 0` with `env` over the test's environment and resolves once it listens. The
 * process is the caller's to end (`child.kill()`).
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--port', '0'], {
    env: { ...process.env, LOG_LEVEL: 'info', HOT_RELOAD: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
  child.stdout!.on('data', (data: Buffer) => (stdout += data.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 60 s')), 60_000);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, base: match[1], exit, stderr: () => stderr, stdout: () => stdout });
    });
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code} before listening: ${stderr}`));
    });
  });
}

/** Polls the gateway's readiness probe until it answers 200 (the workspace has loaded). */
export async function waitUntilReady(base: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const response = await fetch(`${base}/api/adaptive/actuator/health/readiness`).catch(() => undefined);
    if (response?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('never ready');
}
