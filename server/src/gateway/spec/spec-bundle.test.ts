import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { bundleSpec } from './spec-bundle.js';
import { defaultSpecLimits } from '../../core/settings.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-fix-')));
const specsDir = path.join(root, 'specs');
fs.mkdirSync(specsDir);
fs.writeFileSync(path.join(root, 'secret.yaml'), 'secret: true\n');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function specWithRef(ref: string): string {
  const file = path.join(specsDir, 'api.openapi.yaml');
  fs.writeFileSync(
    file,
    `openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: '${ref}'}\n`,
  );
  return file;
}

describe('references outside the specs directory', () => {
  it.each(['../secret.yaml', '/etc/hostname', '/issue-1891-shared-types.yaml', './a/../../secret.yaml'])(
    '%s is refused without looking the path up',
    (ref) => {
      const file = specWithRef(ref);
      const realpath = vi.spyOn(fs, 'realpathSync');
      const read = vi.spyOn(fs, 'readFileSync');
      expect(() => bundleSpec(file, specsDir, defaultSpecLimits)).toThrow(/points outside the specs directory/);
      const touched = [...realpath.mock.calls, ...read.mock.calls].map((call) => String(call[0]));
      expect(touched.filter((p) => !p.startsWith(specsDir))).toEqual([]);
    },
  );
  it('a symlink inside the specs directory that leads outside is still refused after resolving it', () => {
    fs.symlinkSync(path.join(root, 'secret.yaml'), path.join(specsDir, 'link.yaml'));
    expect(() => bundleSpec(specWithRef('./link.yaml'), specsDir, defaultSpecLimits)).toThrow(
      /points outside the specs directory/,
    );
  });
});
