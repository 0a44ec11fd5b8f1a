import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { declaredVersion } from './early-start.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aw-early-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

describe('declaredVersion', () => {
  it('reads the version a YAML or JSON spec declares near its start; Swagger 2.0 is checked as 3.0', () => {
    expect(declaredVersion(file('a.yaml', '# orders\nopenapi: 3.0.3\ninfo: {}\n'))).toBe('3.0');
    expect(declaredVersion(file('b.yaml', "openapi: '3.1.0'\n"))).toBe('3.1');
    expect(declaredVersion(file('c.json', '{\n  "openapi": "3.1.1", "info": {}}'))).toBe('3.1');
    expect(declaredVersion(file('d.json', '{"swagger": "2.0"}'))).toBe('3.0');
  });

  it('says nothing when it cannot tell at a glance: no key, another version, a nested key, no file, a folder', () => {
    expect(declaredVersion(file('e.yaml', 'info:\n  title: x\n'))).toBeUndefined();
    expect(declaredVersion(file('f.yaml', 'openapi: 4.0.0\n'))).toBeUndefined();
    expect(declaredVersion(file('g.yaml', 'x-note: "openapi: 3.1"\n'))).toBeUndefined();
    expect(declaredVersion(path.join(dir, 'missing.yaml'))).toBeUndefined();
    expect(declaredVersion(dir)).toBeUndefined();
  });
});
