import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { changeKinds, verdictOf, type ChangeKind } from './change-kinds.js';

describe('docs/breaking-changes.md', () => {
  const doc = fs.readFileSync('docs/breaking-changes.md', 'utf8');

  it('lists every change kind with its verdict in a request and in a response', () => {
    for (const kind of Object.keys(changeKinds) as ChangeKind[])
      expect(doc).toContain(`| \`${kind}\` | ${verdictOf(kind, 'request')} | ${verdictOf(kind, 'response')} |`);
    const listed = [...doc.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(changeKinds).sort());
  });
});
