import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'server/bin/adaptive-gateway.cjs');

/** The example workspace: the gateway's part, and query/ for the query console's demo sources. */
export const exampleParts = ['specs', 'handlers', 'health.yaml', 'query'];

/**
 * A copy of the example workspace (its `parts`, all by default) in a new temporary folder named `aw-<name>-…`:
 * a test that starts a server of its own starts it on this, never on the repository's files.
 */
export function copyExampleWorkspace(name: string, parts: readonly string[] = exampleParts): string {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), `aw-${name}-`));
  for (const part of parts) {
    const source = path.join(root, part);
    if (fs.existsSync(source)) fs.cpSync(source, path.join(workspace, part), { recursive: true });
  }
  return workspace;
}

/** A TCP port nobody listens on now (the test that needs it opens it later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A running `serve --workbench`: the URL it printed (with the token), and how to stop it. */
export interface WorkbenchServer {
  url: string;
  process: ChildProcess;
  /** Ends the server (SIGTERM, or SIGKILL for a crash) and waits until it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the built server with `serve --workbench` on `workspace` (port 0 = any free one), its output
 * appended to `logFile`, and resolves once it printed the workbench URL.
 */
export async function startWorkbenchServer(options: {
  workspace: string;
  logFile: string;
  port?: number;
  env?: Record<string, string>;
}): Promise<WorkbenchServer> {
  const { workspace, logFile, port = 0 } = options;
  // Handlers import 'adaptive-workbench/handler': the server maps it to its own SDK, from any folder.
  const server = spawn(
    process.execPath,
    [cli, 'serve', '--workbench', '--port', String(port), '--host', '127.0.0.1', '--workspace', workspace],
    {
      env: { ...process.env, AUTH_ENABLED: 'false', HOT_RELOAD: 'true', LOG_LEVEL: 'info', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  void exited.then(() => log.end());

  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`The server printed no workbench URL within 60 s:\n${output}`)),
      60_000,
    );
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Workbench: (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    process: server,
    stop: async (signal = 'SIGTERM') => {
      if (server.exitCode === null && server.signalCode === null) server.kill(signal);
      await exited;
    },
  };
}
