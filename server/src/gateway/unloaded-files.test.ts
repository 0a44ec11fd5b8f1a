import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { Gateway, type UnitLoader } from './gateway.js';
import { unloadedFiles } from './unloaded-files.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'unloaded-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), '');
};

/** A loader of `*_handler.ts` whose units say they read `uses`. */
function loader(uses: string[], unloadedReason?: string): UnitLoader {
  return {
    kind: 'handler',
    dir,
    accepts: (name) => name.endsWith('_handler.ts'),
    unloadedReason,
    load: async (file) => ({
      kind: 'handler',
      file: path.basename(file),
      mount: 'm',
      routes: [],
      warnings: [],
      inputs: [file, ...uses.map((name) => path.join(dir, name))],
    }),
  };
}

describe('unloadedFiles', () => {
  it('lists top-level files no loader reads and no unit uses; hidden, project and subfolder files are left', () => {
    for (const name of ['a_handler.ts', 'orders.ts', 'money.ts', '.orders.ts.swp', 'tsconfig.json', 'lib/x.ts'])
      write(name);
    const units = [{ kind: 'handler' as const, file: 'a_handler.ts', mount: 'a', routes: [], warnings: [] }];
    const withInputs = [{ ...units[0], inputs: [path.join(dir, 'a_handler.ts'), path.join(dir, 'money.ts')] }];
    const rule = loader([], 'name them *_handler.ts');
    expect(unloadedFiles([rule], withInputs).map((f) => f.file)).toEqual(['orders.ts']);
    expect(unloadedFiles([rule], units).map((f) => f.file)).toEqual(['money.ts', 'orders.ts']);
    // A folder whose loaders state no rule (a folder given to `serve`) is not looked at.
    expect(unloadedFiles([loader([])], units)).toEqual([]);
  });

  it('the gateway lists them in every refresh result but logs each once', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const gateway = new Gateway([loader(['money.ts'], 'name them *_handler.ts')], log);
    for (let i = 0; i < 3; i++) {
      const result = await gateway.reload();
      expect(result.skipped).toEqual([{ file: 'orders.ts', reason: 'name them *_handler.ts' }]);
      expect(result.message).toMatch(/; 1 file not loaded \(listed in skipped\)$/);
    }
    expect(lines.filter((line) => line.includes('orders.ts is not loaded'))).toHaveLength(1);
    fs.unlinkSync(path.join(dir, 'orders.ts'));
    expect((await gateway.reload()).skipped).toEqual([]);
  });
});
