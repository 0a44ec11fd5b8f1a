import { describe, expect, it } from 'vitest';
import { xpathRegex } from './operators.js';

describe('xpathRegex: XPath regular expressions as RE2 patterns', () => {
  it.each([
    ['a.b', '', '(?-s)a.b'],
    ['a.b', 's', '(?s)a.b'],
    ['^ab', 'mi', '(?im-s)^ab'],
    // q: every character is itself.
    ['a.c(d)+', 'q', '(?-s)a\\.c\\(d\\)\\+'],
    // x: whitespace goes, except inside a character class; an escaped character stays whole.
    ['a b [ x]\\. c', 'x', '(?-s)ab[ x]\\.c'],
    // q wins over x: the pattern is taken as written.
    ['a b', 'qx', '(?-s)a b'],
  ])('%j with flags %j is %j', (pattern, flags, expected) => {
    expect(xpathRegex(pattern, flags)).toBe(expected);
  });

  it('refuses flags XPath does not define', () => {
    expect(() => xpathRegex('a', 'g')).toThrow(/the regex flags "g"/);
  });
});
