import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCorpusManifest } from './manifest.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readCorpusManifest', () => {
  it('lists entry specs with their <category>/<source-slug> folder as specs root', () => {
    fs.writeFileSync(
      path.join(dir, 'MANIFEST.tsv'),
      [
        'file\tcategory\trole\tspec_version\tbytes\tsource_repo\tsource_commit\tsource_path\tnote',
        'realworld/box/openapi/spec.json\trealworld\tspec\t3.0.0\t100\tbox/x\tabc\tspec.json\t',
        'realworld/box/openapi/part.json\trealworld\tsupport\t\t10\tbox/x\tabc\tpart.json\t',
        'pathological/synthetic/bomb.json\tpathological\tspec\t3.0.3\t5\tlocal\t-\tbomb.json\ta bomb',
        '',
      ].join('\n'),
    );
    expect(readCorpusManifest(dir)).toEqual([
      {
        file: 'realworld/box/openapi/spec.json',
        category: 'realworld',
        specsRoot: 'realworld/box',
        bytes: 100,
        note: '',
      },
      {
        file: 'pathological/synthetic/bomb.json',
        category: 'pathological',
        specsRoot: 'pathological/synthetic',
        bytes: 5,
        note: 'a bomb',
      },
    ]);
  });
  it('refuses a manifest without the expected columns', () => {
    fs.writeFileSync(path.join(dir, 'MANIFEST.tsv'), 'path\trole\nx\tspec\n');
    expect(() => readCorpusManifest(dir)).toThrow(/"file" column/);
  });
});
