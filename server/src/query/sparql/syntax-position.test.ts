import sparqljs from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { syntaxErrorPosition } from './syntax-position.js';

/** The position of the error sparqljs throws for `text`. */
function positionOf(text: string) {
  try {
    new sparqljs.Parser().parse(text);
  } catch (error) {
    return syntaxErrorPosition(text, error as Error);
  }
  throw new Error(`parsed: ${text}`);
}

describe('syntaxErrorPosition', () => {
  it('puts an undeclared prefix at its first use as a prefixed name', () => {
    expect(positionOf('SELECT ?s WHERE { ?s foo:bar ?o }')).toEqual({ line: 1, column: 22 });
    // Not inside a comment, an IRI, a string or a longer name: there it is no prefixed name.
    const text = [
      'PREFIX ex: <http://example.org/foo:x>',
      '# foo:bar in a comment',
      'SELECT ?s WHERE { ?s ex:p "foo:bar" ; ex:q """foo:',
      'bar""" ; ex:foo:r ?o .',
      '  ?s   foo:bar ?o }',
    ].join('\n');
    expect(positionOf(text)).toEqual({ line: 5, column: 8 });
  });

  it('puts a parse error at the token the parser refused, across blanks, lines and comments', () => {
    expect(positionOf('SELECT ?x WHERE {\n ?x ?y }')).toEqual({ line: 2, column: 8 });
    expect(positionOf('SELECT ?x WHERE { ?x ?y ?z . FILTER(\n  # why\n  }')).toEqual({ line: 3, column: 3 });
    expect(positionOf('SELEC ?x')).toEqual({ line: 1, column: 1 });
  });

  it('says nothing rather than guess when the parser gives no place', () => {
    expect(syntaxErrorPosition('SELECT ?x', new Error('something else'))).toBeUndefined();
    expect(syntaxErrorPosition('SELECT ?x WHERE { ?x <a> ?y }', new Error('Unknown prefix: foo'))).toBeUndefined();
  });
});
