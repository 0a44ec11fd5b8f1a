import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The environment variables loadConfig reads against the README's Configuration table, as errors.test.ts keeps
// the error catalogue and docs/errors.md together: a variable the server reads is a variable its users can find.

const repoDir = path.join(import.meta.dirname, '../../..');

/** Every variable name config.ts reads: `env.NAME`, and the quoted names it passes to its readers. */
export function variablesRead(source: string): Set<string> {
  const names = new Set<string>();
  for (const match of source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)|'([A-Z][A-Z0-9_]+)'/g)) names.add(match[1] ?? match[2]);
  return names;
}

/** Every variable named in the first column of the README's `## Configuration` table. */
export function variablesDocumented(readme: string): Set<string> {
  const section = readme.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? '';
  const names = new Set<string>();
  for (const row of section.split('\n').filter((line) => line.startsWith('| `'))) {
    const firstCell = row.split('|')[1];
    for (const match of firstCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]);
  }
  return names;
}

describe('the README Configuration table', () => {
  const read = variablesRead(fs.readFileSync(path.join(import.meta.dirname, 'config.ts'), 'utf8'));
  const documented = variablesDocumented(fs.readFileSync(path.join(repoDir, 'README.md'), 'utf8'));

  it('lists every variable loadConfig reads', () => {
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
  });

  it('lists no variable loadConfig does not read', () => {
    expect([...documented].filter((name) => !read.has(name)).sort()).toEqual([]);
  });

  it('finds the names where config.ts and the README write them', () => {
    expect(variablesRead("const a = env.PORT; readInteger('BODY_LIMIT', x); env['lower']")).toEqual(
      new Set(['PORT', 'BODY_LIMIT']),
    );
    const readme = '## Configuration\n| `A_B`, `C_D` | `--c` | `D` | x |\n## Next\n| `E` | | | |\n';
    expect(variablesDocumented(readme)).toEqual(new Set(['A_B', 'C_D']));
  });
});
