import { describe, expect, it } from 'vitest';
import type { StackFrame } from '../../../server/src/contract/index.js';
import { foldLabel, foldStack, frameText } from './stack-view.js';

const frame = (place: StackFrame['place'], name: string): StackFrame => ({
  function: name,
  file: `${place}.js`,
  place,
});

describe('stack view', () => {
  it('puts workspace frames first, then the server, and folds libraries and Node apart', () => {
    const frames = [
      frame('node_modules', 'lib1'),
      frame('workspace', 'reviver'),
      frame('node_modules', 'lib2'),
      frame('workspace', 'route'),
      frame('server', 'call'),
      frame('node', 'emit'),
    ];
    const folded = foldStack(frames);
    expect(folded.shown.map((f) => f.function)).toEqual(['reviver', 'route', 'call']);
    expect(folded.libraries.map((f) => f.function)).toEqual(['lib1', 'lib2']);
    expect(folded.internals.map((f) => f.function)).toEqual(['emit']);
    expect(folded.labels).toEqual({ libraries: 'in node_modules', internals: 'in Node internals' });
    expect(foldStack([])).toMatchObject({ shown: [], libraries: [], internals: [] });
  });

  it('names the folded groups of a Python traceback as Python has them', () => {
    const python: StackFrame[] = [
      { function: 'get_book', file: 'handlers/library_handler.py', line: 11, place: 'workspace' },
      { function: 'run', file: '/usr/lib/python3/dist-packages/starlette/routing.py', line: 74, place: 'node_modules' },
      { function: 'loads', file: '/usr/lib/python3.11/json/__init__.py', line: 346, place: 'node' },
    ];
    expect(foldStack(python).labels).toEqual({ libraries: 'in site-packages', internals: 'in Python internals' });
  });

  it('writes frames and labels as people read them', () => {
    expect(frameText({ function: 'explode', file: 'handlers/a.ts', line: 3, column: 9, place: 'workspace' })).toBe(
      'explode (handlers/a.ts:3:9)',
    );
    expect(frameText({ file: '/x.js', line: 3, place: 'server' })).toBe('/x.js:3');
    expect(frameText({ function: 'Array.map', file: '<anonymous>', place: 'node' })).toBe('Array.map (<anonymous>)');
    expect(foldLabel(12, 'in node_modules')).toBe('12 frames in node_modules');
    expect(foldLabel(1, 'in node_modules')).toBe('1 frame in node_modules');
  });
});
