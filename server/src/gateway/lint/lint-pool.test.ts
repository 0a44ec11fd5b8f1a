import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
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

  it(
    'reads UTF-16 as the loader does, refuses a document nested too deeply as "cannot lint", and lints on',
    { timeout: 300_000 },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lint-deep-'));
      let schema = '{"type": "string"}';
      for (let i = 0; i < 3000; i++) schema = `{"type": "object", "properties": {"n": ${schema}}}`;
      const deep = path.join(dir, 'deep.json');
      fs.writeFileSync(
        deep,
        `{"openapi": "3.0.3", "info": {"title": "d", "version": "1"}, "paths": {}, ` +
          `"components": {"schemas": {"D": ${schema}}}}`,
      );
      const plain = path.join(dir, 'plain.yaml');
      fs.writeFileSync(plain, 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n');
      try {
        const contact = expect.objectContaining({ rule: 'info-contact' });
        // A bound generous for a loaded machine, and the worker started first: the refusal below must come from
        // the depth check, never from a time bound.
        const pool = new LintPool({ timeoutMs: 100_000, maxHeapMb: 256 });
        onTestFinished(() => pool.close());
        expect(await pool.lint(plain, dir)).toContainEqual(contact);
        const utf16 = path.join(dir, 'utf16.yaml');
        fs.writeFileSync(utf16, Buffer.from(`\ufeff${fs.readFileSync(plain, 'utf8')}`, 'utf16le'));
        expect(await pool.lint(utf16, dir)).toContainEqual(contact);
        await expect(pool.lint(deep, dir)).rejects.toThrow(
          'document is nested deeper than 1000 levels, too deep to lint',
        );
        expect(await pool.lint(plain, dir)).toContainEqual(contact);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('rejects a job past its time bound and serves the next one', async () => {
    const slow = new LintPool({ timeoutMs: 1, maxHeapMb: 256 });
    await expect(slow.lint(path.join(corpus, 'empty.yaml'), corpus)).rejects.toThrow(/longer than 1 ms/);
    slow.close();
  });
});
