import { describe, expect, it } from 'vitest';
import { treeKey, typeAhead, visibleRows } from './tree-keys.js';
import { file, folder } from './workspace-entries.test-support.js';

const entries = [
  folder('specs', [
    file('specs/a.openapi.yaml'),
    file('specs/b.openapi.yaml'),
    folder('specs/old', [file('specs/old/x.yaml')]),
  ]),
  folder('handlers', [file('handlers/a_handler.ts')]),
  file('health.yaml'),
];

describe('visibleRows', () => {
  it('lists the entries of open folders only, top to bottom', () => {
    expect(visibleRows(entries, ['specs']).map((r) => r.path)).toEqual([
      'specs',
      'specs/a.openapi.yaml',
      'specs/b.openapi.yaml',
      'specs/old',
      'handlers',
      'health.yaml',
    ]);
  });

  it('hides an open folder inside a closed one', () => {
    expect(visibleRows(entries, ['specs/old']).map((r) => r.path)).toEqual(['specs', 'handlers', 'health.yaml']);
  });
});

describe('treeKey', () => {
  const rows = visibleRows(entries, ['specs']);

  it('moves down and up, stopping at the ends', () => {
    expect(treeKey('ArrowDown', rows, 'specs')).toEqual({ select: 'specs/a.openapi.yaml' });
    expect(treeKey('ArrowDown', rows, 'health.yaml')).toEqual({ select: 'health.yaml' });
    expect(treeKey('ArrowUp', rows, 'specs')).toEqual({ select: 'specs' });
    expect(treeKey('Home', rows, 'handlers')).toEqual({ select: 'specs' });
    expect(treeKey('End', rows, 'specs')).toEqual({ select: 'health.yaml' });
  });

  it('opens a closed folder with Right, then enters it', () => {
    expect(treeKey('ArrowRight', rows, 'handlers')).toEqual({ toggle: { path: 'handlers', open: true } });
    expect(treeKey('ArrowRight', rows, 'specs')).toEqual({ select: 'specs/a.openapi.yaml' });
    expect(treeKey('ArrowRight', rows, 'specs/a.openapi.yaml')).toEqual({});
  });

  it('enters nothing from an open empty folder', () => {
    const empty = visibleRows([folder('query', []), file('health.yaml')], ['query']);
    expect(treeKey('ArrowRight', empty, 'query')).toEqual({});
  });

  it('closes an open folder with Left, else goes to the parent', () => {
    expect(treeKey('ArrowLeft', rows, 'specs')).toEqual({ toggle: { path: 'specs', open: false } });
    expect(treeKey('ArrowLeft', rows, 'specs/b.openapi.yaml')).toEqual({ select: 'specs' });
    expect(treeKey('ArrowLeft', rows, 'health.yaml')).toEqual({});
  });

  it('opens a file with Enter and flips a folder', () => {
    expect(treeKey('Enter', rows, 'specs/a.openapi.yaml')).toEqual({ open: 'specs/a.openapi.yaml' });
    expect(treeKey('Enter', rows, 'handlers')).toEqual({ toggle: { path: 'handlers', open: true } });
  });

  it('selects the first row when nothing (or a hidden row) is selected, and leaves other keys alone', () => {
    expect(treeKey('ArrowDown', rows, undefined)).toEqual({ select: 'specs' });
    expect(treeKey('End', rows, 'handlers/a_handler.ts')).toEqual({ select: 'specs' });
    expect(treeKey('Enter', rows, undefined)).toBeUndefined();
    expect(treeKey('x', rows, 'specs')).toBeUndefined();
    expect(treeKey('ArrowDown', [], undefined)).toBeUndefined();
  });
});

describe('typeAhead', () => {
  const rows = visibleRows(entries, ['specs']);

  it('jumps to the next row starting with a letter, wrapping round, ignoring case', () => {
    expect(typeAhead(rows, 'specs', 'H')).toBe('handlers');
    expect(typeAhead(rows, 'handlers', 'h')).toBe('health.yaml');
    expect(typeAhead(rows, 'health.yaml', 'h')).toBe('handlers');
  });

  it('refines on the selected row as more letters come', () => {
    expect(typeAhead(rows, 'handlers', 'ha')).toBe('handlers');
    expect(typeAhead(rows, 'handlers', 'he')).toBe('health.yaml');
  });

  it('finds nothing for a prefix no row has', () => {
    expect(typeAhead(rows, 'specs', 'zz')).toBeUndefined();
  });
});
