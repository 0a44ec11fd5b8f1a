import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, httpError, httpErrorWithStatus, revivedHttpError, type ErrorCode } from './errors.js';

// The catalogue against its documentation and its use, as Fastify's test/errors.test.js keeps
// lib/errors.js and docs/Reference/Errors.md together.

const srcDir = path.join(import.meta.dirname, '..');
const repoDir = path.join(srcDir, '../..');
const catalogueFile = path.join(import.meta.dirname, 'errors.ts');
const codes = Object.keys(errorCatalogue) as ErrorCode[];

/** The rows of docs/errors.md's table: code and status as written. */
function documentedCodes(): Map<string, string> {
  const text = fs.readFileSync(path.join(repoDir, 'docs/errors.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const match of text.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]+) \|/gm)) rows.set(match[1], match[2].trim());
  return rows;
}

/** The status column's text for a code: its status, or the range a raiser picks from. */
function statusCell(code: ErrorCode): string {
  const { status } = errorCatalogue[code];
  return status === 'chosen' ? '400–599' : String(status);
}

/** Every file of `dir` (recursively) whose name passes `keep`. */
function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => keep(file) && fs.statSync(file).isFile());
}

/** The shipped sources that may raise a code: server/src without tests, and the Python worker. */
function shippedSources(): Map<string, string> {
  const files = [
    ...filesUnder(srcDir, (f) => f.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(f) && !f.includes('test-support')),
    ...filesUnder(path.join(repoDir, 'server/python'), (f) => f.endsWith('.py')),
  ];
  return new Map(files.filter((f) => f !== catalogueFile).map((f) => [f, fs.readFileSync(f, 'utf8')]));
}

describe('the error catalogue', () => {
  it('is the table of docs/errors.md: the same codes with the same statuses', () => {
    const documented = documentedCodes();
    expect([...documented.keys()].sort()).toEqual([...codes].sort());
    for (const code of codes) expect(documented.get(code), code).toBe(statusCell(code));
  });

  it('has every code raised somewhere in the sources', () => {
    const sources = [...shippedSources().values()];
    const unused = codes.filter(
      (code) => !sources.some((text) => text.includes(`'${code}'`) || text.includes(`"${code}"`)),
    );
    expect(unused).toEqual([]);
  });

  it('is the only place an HttpError is constructed', () => {
    const constructing = [...shippedSources()]
      .filter(([, text]) => /\bnew HttpError\(/.test(text))
      .map(([file]) => path.relative(srcDir, file));
    expect(constructing).toEqual([]);
  });

  it('fills messages in order and sends {detail, code} and the extra fields', () => {
    const error = httpError('QUERY_TOO_LARGE', [120, 100], { hint: 'x' });
    expect(error.status).toBe(413);
    expect(error.body()).toEqual({
      detail: 'The query is 120 characters long; the limit is 100',
      code: 'QUERY_TOO_LARGE',
      hint: 'x',
    });
  });

  it('lets the raiser pick the status of a chosen-status code, and revives an error from its fields', () => {
    const fault = httpErrorWithStatus('INJECTED_FAULT', 503, ['error rate 0.5']);
    expect([fault.status, fault.code, fault.detail]).toEqual([
      503,
      'INJECTED_FAULT',
      'Fault injected by the mock (error rate 0.5)',
    ]);
    const revived = revivedHttpError(httpError('VALIDATION_FAILED', ['x'], { errors: [] }).fields());
    expect(revived.body()).toEqual({ detail: 'Request validation failed: x', code: 'VALIDATION_FAILED', errors: [] });
    expect(revived.status).toBe(400);
  });
});
