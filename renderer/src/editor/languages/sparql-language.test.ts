import { describe, expect, it } from 'vitest';
import { sparqlFunctions, sparqlKeywords, sparqlMonarch } from './sparql-language.js';

/** The first rule of the root state whose pattern matches all of `text` at its start: the token Monaco gives it. */
function firstRule(text: string): unknown {
  const rules = sparqlMonarch.tokenizer.root as [RegExp, unknown, string?][];
  for (const [pattern, action] of rules) {
    const match = new RegExp(`^(?:${pattern.source})`, pattern.flags).exec(text);
    if (match && match[0] === text) return action;
  }
  return undefined;
}

describe('SPARQL words', () => {
  it('lists each keyword and function once (matched case-insensitively), and no word as both', () => {
    const upper = (list: string[]) => list.map((w) => w.toUpperCase());
    for (const list of [sparqlKeywords, sparqlFunctions]) expect(new Set(upper(list)).size).toBe(list.length);
    expect(upper(sparqlKeywords).filter((k) => upper(sparqlFunctions).includes(k))).toEqual([]);
  });
});

describe('SPARQL tokens', () => {
  it('tells variables, IRIs, prefixed names, blank nodes, language tags and comments apart', () => {
    expect(firstRule('# a comment')).toBe('comment');
    expect(firstRule('?größe')).toBe('variable');
    expect(firstRule('$x')).toBe('variable');
    expect(firstRule('<http://example.org/a#b>')).toBe('string.link');
    expect(firstRule('_:b0')).toBe('type.identifier');
    expect(firstRule('@en-GB')).toBe('annotation');
    expect(firstRule('ex:Customer')).toBe('type');
    expect(firstRule(':local')).toBe('type');
    expect(firstRule('1.5e3')).toBe('number');
  });

  it('does not take an IRI with a space or a quote for one', () => {
    expect(firstRule('<http://a b>')).toBeUndefined();
    expect(firstRule('<http://a"b>')).toBeUndefined();
  });
});
