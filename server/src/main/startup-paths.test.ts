import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const cli = path.join(import.meta.dirname, 'cli.ts');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-startup-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** Runs `adaptive-gateway serve ...args` from its sources; a bad path must stop it long before 20 s. */
function serve(args: string[], env: Record<string, string> = {}, uid?: number) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', cli, 'serve', '--port', '0', ...args], {
    cwd: path.join(import.meta.dirname, '..', '..'),
    env: { ...process.env, HOT_RELOAD: 'false', ...env },
    encoding: 'utf8',
    timeout: 20_000,
    uid,
  });
  return { code: result.status, stderr: result.stderr, stdout: result.stdout };
}

describe('start-up paths', () => {
  it('a missing workspace: one line, exit code 2, nothing created', () => {
    const missing = path.join(scratch, 'missing');
    const result = serve(['--workspace', missing]);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `adaptive-gateway: --workspace="${missing}" is not valid: expected a readable folder, but it does ` +
        `not exist\n`,
    });
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('a file given as the workspace (WORKSPACE too): one line, exit code 2, no stack', () => {
    const file = path.join(scratch, 'a-file');
    fs.writeFileSync(file, '');
    expect(serve(['--workspace', file])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `adaptive-gateway: --workspace="${file}" is not valid: expected a readable folder, but it is not ` +
        `a folder\n`,
    });
    expect(serve([], { WORKSPACE: file }).stderr).toBe(
      `adaptive-gateway: WORKSPACE="${file}" is not valid: expected a readable folder, but it is not a folder\n`,
    );
  });

  it('a spec path that is missing or not a .yaml/.yml/.json file: one line, exit code 2', () => {
    expect(serve([path.join(scratch, 'nope.yaml')])).toMatchObject({
      code: 2,
      stderr:
        `adaptive-gateway: spec="${path.join(scratch, 'nope.yaml')}" is not valid: expected an OpenAPI ` +
        `file or a folder of them, but it does not exist\n`,
    });
    fs.writeFileSync(path.join(scratch, 'notes.txt'), '');
    expect(serve([path.join(scratch, 'notes.txt')])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('but it is neither a folder nor a .yaml, .yml or .json file'),
    });
  });

  it('an unreadable workspace: one line, exit code 2', () => {
    const locked = path.join(scratch, 'locked');
    fs.mkdirSync(locked, { mode: 0o000 });
    // Root reads any folder: as root, the server runs as nobody (65534) for this one.
    fs.chmodSync(scratch, 0o755);
    const asRoot = process.getuid?.() === 0;
    expect(serve(['--workspace', locked], {}, asRoot ? 65534 : undefined)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `adaptive-gateway: --workspace="${locked}" is not valid: expected a readable folder, but it ` +
        `cannot be read (EACCES)\n`,
    });
  });
});
