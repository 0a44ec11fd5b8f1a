import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LintPool } from './lint-pool.js';

const corpus = '/work/shared/conformance/openapi-corpus/pathological/synthetic';
const hostile = [
  'ref-dag-bomb-2pow30.json',
  'yaml-alias-amplification.yaml',
  'deep-nesting-3000.json',
  'ref-chain-10000.yaml',
  'ref-self-cycle.yaml',
  'allof-cycle.yaml',
  'external-ref-ssrf.yaml',
  'external-ref-lfi.yaml',
  'yaml-unsafe-tags.yaml',
];

describe('LintPool on hostile documents', () => {
  const pool = new LintPool({ timeoutMs: 20_000, maxHeapMb: 256 });
  afterAll(() => pool.close());

  it.skipIf(!fs.existsSync(corpus))(
    'settles every one within its bound, reads nothing outside its root, and lints the next file',
    { timeout: 400_000 },
    async () => {
      for (const name of hostile) {
        const outcome = await pool.lint(path.join(corpus, name), corpus).then(
          (findings) => ({ findings }),
          (error: Error) => ({ error: error.message }),
        );
        if ('findings' in outcome) {
          const text = outcome.findings.map((f) => `${f.file} ${f.message}`).join('\n');
          expect(text, name).not.toMatch(/root:x:0:0|\/etc\/passwd:/);
          expect(
            outcome.findings.every((f) => !path.relative(corpus, f.file).startsWith('..')),
            name,
          ).toBe(true);
        } else expect(outcome.error, name).toEqual(expect.any(String));
      }
      const findings = await pool.lint(path.join(corpus, 'server-vars-and-path-templates.yaml'), corpus);
      expect(Array.isArray(findings)).toBe(true);
    },
  );

  it('rejects a job past its time bound and serves the next one', async () => {
    const slow = new LintPool({ timeoutMs: 1, maxHeapMb: 256 });
    await expect(slow.lint(path.join(corpus, 'empty.yaml'), corpus)).rejects.toThrow(/longer than 1 ms/);
    slow.close();
  });
});
