import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePrivateFolder, sweepOrphanFolders } from './private-folders.js';

describe('private folders', () => {
  it('names a folder after its process, and the sweep removes only those of processes that are gone', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const orphan = fs.mkdtempSync(path.join(os.tmpdir(), `aw-query-${gone}-`));
    fs.writeFileSync(path.join(orphan, 'spill.tmp'), 'x');
    const own = makePrivateFolder('query');
    expect(path.basename(own)).toMatch(new RegExp(`^aw-query-${process.pid}-`));
    try {
      expect(sweepOrphanFolders()).toBeGreaterThanOrEqual(1);
      expect(fs.existsSync(orphan)).toBe(false);
      expect(fs.existsSync(own)).toBe(true);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
      fs.rmSync(orphan, { recursive: true, force: true });
    }
  });
});
