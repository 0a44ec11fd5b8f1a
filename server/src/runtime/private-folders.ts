import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const prefix = 'aw-';
/** `aw-<kind>-<pid>-<random>`: the pid says whose folder it is once that process is gone. */
const folderName = /^aw-[a-z]+-(\d+)-/;

/**
 * A new private folder of this process in the temporary folder, for `kind` of work (`query`, `fetch`,
 * `handlers`, `py`). Its name carries the process id, so that {@link sweepOrphanFolders} can remove it
 * should the process be killed before it cleans up.
 */
export function makePrivateFolder(kind: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}${kind}-${process.pid}-`));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the private folders of processes that no longer run (a server stopped with `kill -9` leaves
 * its query and handler folders behind). Returns how many were removed. Folders of running processes,
 * this one included, are left alone.
 */
export function sweepOrphanFolders(): number {
  const tmp = os.tmpdir();
  let removed = 0;
  let names: string[];
  try {
    names = fs.readdirSync(tmp);
  } catch {
    return 0;
  }
  for (const name of names) {
    const match = folderName.exec(name);
    if (!match || isRunning(Number(match[1]))) continue;
    fs.rmSync(path.join(tmp, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
