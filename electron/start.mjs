// `npm start`: runs the desktop app on the last (or the example) workspace. Electron is an optional
// dependency whose binary download npm may skip (npm 11 runs no install script that is not approved)
// or fail to make (no internet): the binary is fetched here on first start where it can be, and its
// absence is a clear message, never an install failure.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The path of the installed Electron binary, or undefined (package or binary missing). */
function installedBinary() {
  try {
    const binary = require('electron');
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** Runs Electron's own download script (the one npm did not run); returns its last line of error output on failure. */
function fetchBinary() {
  let installer;
  try {
    installer = require.resolve('electron/install.js');
  } catch {
    return 'the electron package is not installed (its install failed)';
  }
  console.error('Fetching the Electron binary...');
  const result = spawnSync(process.execPath, [installer], { encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
  if (result.status === 0) return undefined;
  return (
    (result.stderr ?? '')
      .trim()
      .split('\n')
      .find((line) => /error/i.test(line)) ?? `exit code ${result.status}`
  );
}

let binary = installedBinary();
if (!binary) {
  const failure = fetchBinary();
  binary = installedBinary();
  if (!binary) {
    console.error(
      `No Electron binary is installed on this machine (${failure ?? 'ELECTRON_SKIP_BINARY_DOWNLOAD is set'}); ` +
        `run the same workbench in a browser instead: npm run workbench`,
    );
    process.exit(1);
  }
}
// The embedded server's queries each hold a libuv pool thread (docs/query.md, "The thread pool"): size it at start.
const child = spawn(binary, ['.'], { stdio: 'inherit', env: { UV_THREADPOOL_SIZE: '16', ...process.env } });
child.on('exit', (code) => process.exit(code ?? 0));
