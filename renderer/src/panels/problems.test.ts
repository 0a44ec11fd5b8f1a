import { describe, expect, it } from 'vitest';
import { countProblems, mergeProblems } from './problems.js';

describe('one count of problems', () => {
  it('counts the editor findings with the server diagnostics, and lists a problem both report once', () => {
    const problems = mergeProblems(
      [
        { path: 'specs/a.yaml', severity: 'error', message: 'Unexpected end', line: 3, column: 1 },
        { path: 'health.yaml', severity: 'warning', message: 'changed since the server started' },
      ],
      [
        { path: 'specs/a.yaml', severity: 'error', message: 'Unexpected end ', line: 3, column: 5, source: 'yaml' },
        {
          path: 'handlers/x_handler.ts',
          severity: 'error',
          message: "Cannot find name 'y'",
          line: 2,
          column: 1,
          source: 'ts',
        },
        { path: 'handlers/x_handler.ts', severity: 'info', message: 'unused', line: 1, column: 1, source: 'ts' },
      ],
    );
    expect(problems.map((p) => `${p.path}:${p.line ?? ''}:${p.source}`)).toEqual([
      'handlers/x_handler.ts:2:ts',
      'handlers/x_handler.ts:1:ts',
      'health.yaml::server',
      'specs/a.yaml:3:yaml',
    ]);
    expect(countProblems(problems)).toEqual({ errors: 2, warnings: 2 });
  });
});
