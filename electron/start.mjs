// `npm start`: runs the desktop app on the last (or the example) workspace, where Electron is installed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

let binary;
try {
  binary = createRequire(import.meta.url)('electron');
} catch {
  binary = undefined;
}
if (typeof binary !== 'string' || !fs.existsSync(binary)) {
  console.error('No Electron binary is installed on this machine; run the same workbench in a browser instead: npm run serve -- --workbench');
  process.exit(1);
}
const child = spawn(binary, ['.'], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
