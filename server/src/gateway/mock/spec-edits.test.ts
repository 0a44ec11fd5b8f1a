import { describe, expect, it } from 'vitest';
import { applySpecMode } from './spec-mode.js';
import { editSpecText } from './spec-edits.js';

const defaults = { examples: 'static', state: false } as const;
const changedLines = (before: string, after: string) => {
  const old = new Set(before.split('\n'));
  return after.split('\n').filter((line) => !old.has(line));
};

describe('editSpecText', () => {
  it('keeps a YAML file as written apart from the edit: comments, unindented lists, long lines', () => {
    const text = `# Orders
openapi: 3.0.3
info:
  title: Orders # the title
  version: '1'
  description: ${'A long description that no one wants re-wrapped by a tool that edits another key. '.repeat(2).trim()}
tags:
- name: orders
- name: admin
paths: {}
`;
    const edited = editSpecText(text, 'orders.openapi.yaml', (tree) => applySpecMode(tree, 'dynamic', defaults));
    expect(changedLines(text, edited.text)).toEqual(['x-mock:', '  examples: dynamic']);
    expect(edited.text.startsWith(text)).toBe(true);
  });

  it('keeps a 4-space indentation', () => {
    const text = 'openapi: 3.0.3\ninfo:\n    title: Orders\npaths: {}\n';
    const edited = editSpecText(text, 'orders.yaml', (tree) => applySpecMode(tree, 'stateful', defaults));
    expect(edited.text).toBe(`${text}x-adaptive-state: true\n`);
  });

  it('edits a JSON spec with its indentation', () => {
    const text = '{\n    "openapi": "3.0.3",\n    "x-adaptive-state": true,\n    "paths": {}\n}\n';
    const edited = editSpecText(text, 'orders.openapi.json', (tree) => applySpecMode(tree, 'static', defaults));
    expect(edited.text).toBe(
      '{\n    "openapi": "3.0.3",\n    "x-adaptive-state": false,\n    "paths": {},\n' +
        '    "x-mock": {\n        "examples": "static"\n    }\n}\n',
    );
  });

  it('changes a scalar in place, keeping the comment beside it', () => {
    const text = 'openapi: 3.0.3\nx-adaptive-proxy: http://a.example # staging\npaths: {}\n';
    const edited = editSpecText(text, 'a.yaml', (tree) =>
      applySpecMode(tree, 'proxy', defaults, 'https://b.example/v1'),
    );
    expect(edited.text).toBe('openapi: 3.0.3\nx-adaptive-proxy: https://b.example/v1 # staging\npaths: {}\n');
  });

  it('refuses text that does not parse with 409 SPEC_EDIT_CONFLICT', () => {
    for (const [text, file] of [
      ['paths: [unclosed', 'a.yaml'],
      ['{"paths": ', 'a.json'],
      ['- a list', 'a.yaml'],
    ]) {
      expect(() => editSpecText(text, file, () => undefined)).toThrow(
        expect.objectContaining({ code: 'SPEC_EDIT_CONFLICT' }),
      );
    }
  });
});
