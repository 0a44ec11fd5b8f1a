import { describe, expect, it } from 'vitest';
import { concreteMediaType, findDeclaredMediaType, negotiate, serialize } from './content-negotiation.js';

describe('negotiate', () => {
  const offered = ['application/xml', 'application/json', 'text/plain'];
  it('prefers JSON without an Accept header or with */*', () => {
    expect(negotiate(undefined, offered)).toBe('application/json');
    expect(negotiate('*/*', offered)).toBe('application/json');
  });
  it('honours order by quality and specificity', () => {
    expect(negotiate('application/json;q=0.5, application/xml', offered)).toBe('application/xml');
    expect(negotiate('text/*', offered)).toBe('text/plain');
    expect(negotiate('application/vnd.x+json, text/plain;q=0.1', offered)).toBe('text/plain');
  });
  it('returns undefined when nothing fits (406) and ignores q=0', () => {
    expect(negotiate('image/png', offered)).toBeUndefined();
    expect(negotiate('application/json;q=0', ['application/json'])).toBeUndefined();
  });
  it('matches declared wildcards', () => {
    expect(negotiate('application/json', ['*/*'])).toBe('*/*');
    expect(concreteMediaType('*/*')).toBe('application/json');
  });
});

describe('findDeclaredMediaType', () => {
  it('matches base types, parameters ignored, wildcards allowed', () => {
    expect(findDeclaredMediaType('application/json; charset=utf-8', ['application/json'])).toBe('application/json');
    expect(findDeclaredMediaType('text/csv', ['text/*'])).toBe('text/*');
    expect(findDeclaredMediaType('application/xml', ['application/json'])).toBeUndefined();
  });
});

describe('serialize', () => {
  it('writes JSON for JSON types and text for text types', () => {
    expect(serialize('application/json', 'x')).toBe('"x"');
    expect(serialize('text/plain', 'x')).toBe('x');
    expect(serialize('text/plain', 5)).toBe('5');
    expect(serialize('application/xml', { a: 1 })).toBe('{"a":1}');
  });
});
