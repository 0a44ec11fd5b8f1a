import sparqljs, { type Query } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { resolveRelativeIriCalls } from './relative-iris.js';

/** The argument of the first projected expression after resolving. */
function firstArgument(text: string): { value: string; language?: string } {
  const query = resolveRelativeIriCalls(new sparqljs.Parser().parse(text) as Query) as {
    variables: { expression: { args: { value: string; language?: string }[] } }[];
  };
  return query.variables[0].expression.args[0];
}

describe('resolveRelativeIriCalls', () => {
  it('resolves a relative string of IRI and URI against BASE', () => {
    expect(firstArgument('BASE <http://example.org/a/b> SELECT (IRI("c") AS ?i) {}').value).toBe(
      'http://example.org/a/c',
    );
    expect(firstArgument('BASE <http://example.org/a/b> SELECT (URI("../d?q#f") AS ?i) {}').value).toBe(
      'http://example.org/d?q#f',
    );
  });

  it('leaves absolute strings, tagged strings, other functions and queries without BASE as written', () => {
    expect(firstArgument('BASE <http://example.org/> SELECT (IRI("urn:x:y") AS ?i) {}').value).toBe('urn:x:y');
    expect(firstArgument('BASE <http://example.org/> SELECT (IRI("c"@en) AS ?i) {}').value).toBe('c');
    expect(firstArgument('BASE <http://example.org/> SELECT (STR("c") AS ?i) {}').value).toBe('c');
    expect(firstArgument('SELECT (IRI("c") AS ?i) {}').value).toBe('c');
  });

  it('resolves inside nested expressions and patterns', () => {
    const query = resolveRelativeIriCalls(
      new sparqljs.Parser().parse('BASE <http://e.org/> SELECT * { BIND(STR(IRI("x")) AS ?s) }') as Query,
    );
    expect(JSON.stringify(query)).toContain('"value":"http://e.org/x"');
  });
});
