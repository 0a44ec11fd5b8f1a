import { describe, expect, it } from 'vitest';
import { countProblems, mergeProblems, problemsSummary } from './problems.js';

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
      'specs/a.yaml:3:yaml, server',
    ]);
    expect(countProblems(problems)).toEqual({ errors: 2, warnings: 2 });
  });
});

describe('lint findings among the problems', () => {
  it('keep their source and rule, and stay apart from a load error at the same line', () => {
    const problems = mergeProblems(
      [
        {
          path: 'specs/a.yaml',
          severity: 'error',
          message: 'bad example',
          line: 12,
          column: 23,
          source: 'lint',
          rule: 'r',
        },
        { path: 'specs/a.yaml', severity: 'info', message: 'no tags', line: 4, column: 7, source: 'lint', rule: 't' },
        { path: 'specs/a.yaml', severity: 'error', message: 'load error', line: 12 },
      ],
      [],
    );
    expect(problems.map((p) => `${p.severity}:${p.line}:${p.source}:${p.rule ?? ''}`)).toEqual([
      'error:12:lint:r',
      'error:12:server:',
      'info:4:lint:t',
    ]);
  });
});

describe('mergeProblems, edge cases', () => {
  it('is empty for no input, and keeps problems that differ in line or severity apart', () => {
    expect(mergeProblems([], [])).toEqual([]);
    const problems = mergeProblems(
      [
        { path: 'a.yaml', severity: 'error', message: 'x' },
        { path: 'a.yaml', severity: 'warning', message: 'x' },
        { path: 'a.yaml', severity: 'error', message: 'x', line: 2 },
        { path: 'a.yaml', severity: 'error', message: 'x' },
      ],
      [],
    );
    expect(problems.map((p) => `${p.severity}:${p.line ?? '-'}`)).toEqual(['error:-', 'error:2', 'warning:-']);
    expect(countProblems(problems)).toEqual({ errors: 2, warnings: 1 });
  });

  it('sorts thousands of problems by file, severity and line', () => {
    const markers = Array.from({ length: 3000 }, (_, i) => ({
      path: `f${i % 7}.yaml`,
      severity: (['info', 'warning', 'error'] as const)[i % 3],
      message: `m${i}`,
      line: 3000 - i,
      column: 1,
      source: 'yaml',
    }));
    const problems = mergeProblems([], markers);
    expect(problems).toHaveLength(3000);
    const rank = { error: 0, warning: 1, info: 2 };
    for (let i = 1; i < problems.length; i++) {
      const [a, b] = [problems[i - 1], problems[i]];
      const order =
        a.path.localeCompare(b.path) || rank[a.severity] - rank[b.severity] || (a.line ?? 0) - (b.line ?? 0);
      expect(order).toBeLessThanOrEqual(0);
    }
  });
});

describe('one entry per YAML fault', () => {
  it("lists the server's 'invalid YAML' and the editor's YAML check of the same fault once", () => {
    const yamlMessage = 'Flow sequence in block collection must be sufficiently indented and end with a ]';
    const problems = mergeProblems(
      [
        {
          path: 'specs/a.yaml',
          severity: 'error',
          message: `invalid YAML: ${yamlMessage} at line 12, column 1:`,
          line: 12,
          column: 1,
        },
      ],
      [
        { path: 'specs/a.yaml', severity: 'error', message: yamlMessage, line: 12, column: 1, source: 'YAML' },
        { path: 'specs/a.yaml', severity: 'error', message: yamlMessage, line: 12, column: 3, source: 'YAML' },
      ],
    );
    expect(problems).toEqual([
      { path: 'specs/a.yaml', severity: 'error', message: yamlMessage, line: 12, column: 1, source: 'YAML, server' },
    ]);
    expect(countProblems(problems)).toEqual({ errors: 1, warnings: 0 });
  });
});

describe('problemsSummary', () => {
  it('says "1 error" and "1 warning", and the plural otherwise', () => {
    expect(problemsSummary({ errors: 1, warnings: 1 })).toBe('1 error, 1 warning');
    expect(problemsSummary({ errors: 0, warnings: 2 })).toBe('0 errors, 2 warnings');
    expect(problemsSummary({ errors: 12, warnings: 0 })).toBe('12 errors, 0 warnings');
  });
});
