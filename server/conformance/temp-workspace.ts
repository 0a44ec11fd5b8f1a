import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A throw-away workspace folder with empty `specs/` and `handlers/`. */
export interface TempWorkspace {
  dir: string;
  specsDir: string;
  /** Deletes the folder and everything in it. */
  remove(): void;
}

/** Creates a fresh workspace under the system temp folder. */
export function createTempWorkspace(prefix: string): TempWorkspace {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
  const specsDir = path.join(dir, 'specs');
  fs.mkdirSync(specsDir);
  fs.mkdirSync(path.join(dir, 'handlers'));
  return { dir, specsDir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
