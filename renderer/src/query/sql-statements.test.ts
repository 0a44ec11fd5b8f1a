import { describe, expect, it } from 'vitest';
import { inWholeText, splitSql, statementsToRun } from './sql-statements.js';

const texts = (text: string) => splitSql(text).map((s) => s.text);

describe('splitSql', () => {
  it('splits on semicolons but not inside strings, quoted names, comments or dollar quotes', () => {
    const script = [
      "SELECT 'a;b' AS x;",
      'SELECT "odd;name" FROM t; -- a comment; still a comment',
      '/* a; block */ SELECT $$;$$, $tag$ ; $tag$;',
      "SELECT 'it''s; fine'",
    ].join('\n');
    expect(texts(script)).toEqual([
      "SELECT 'a;b' AS x",
      'SELECT "odd;name" FROM t',
      '-- a comment; still a comment\n/* a; block */ SELECT $$;$$, $tag$ ; $tag$',
      "SELECT 'it''s; fine'",
    ]);
  });

  it('leaves out chunks holding only comments and blanks', () => {
    expect(texts('SELECT 1;\n-- the end\n;  ;')).toEqual(['SELECT 1']);
    expect(texts('  \n')).toEqual([]);
  });

  it('says where each statement starts (1-based line and column)', () => {
    const [first, second] = splitSql('SELECT 1;\n  SELECT 2');
    expect(first).toMatchObject({ offset: 0, line: 1, column: 1 });
    expect(second).toMatchObject({ offset: 12, line: 2, column: 3, text: 'SELECT 2' });
  });
});

describe('statementsToRun', () => {
  const text = 'SELECT 1;\nSELECT 2;\n\nSELECT 3';

  it('runs the selection as it is, even across statements', () => {
    const run = statementsToRun(text, 'sql', { selection: { start: 7, end: 18 }, cursor: 18, script: false });
    expect(run).toEqual([{ text: '1;\nSELECT 2', offset: 7, line: 1, column: 8 }]);
  });

  it('runs the statements of the selection as a script', () => {
    const run = statementsToRun(text, 'sql', { selection: { start: 7, end: 18 }, cursor: 18, script: true });
    expect(run).toEqual([
      { text: '1', offset: 7, line: 1, column: 8 },
      { text: 'SELECT 2', offset: 10, line: 2, column: 1 },
    ]);
  });

  it('runs the statement under the cursor, or the one before it between statements', () => {
    const at = (cursor: number) => statementsToRun(text, 'sql', { cursor, script: false }).map((s) => s.text);
    expect(at(0)).toEqual(['SELECT 1']);
    expect(at(13)).toEqual(['SELECT 2']);
    expect(at(20)).toEqual(['SELECT 2']);
    expect(at(text.length)).toEqual(['SELECT 3']);
  });

  it('runs every statement of a script', () => {
    expect(statementsToRun(text, 'sql', { cursor: 0, script: true }).map((s) => s.text)).toEqual([
      'SELECT 1',
      'SELECT 2',
      'SELECT 3',
    ]);
  });

  it('runs a SPARQL query whole: a semicolon there separates predicates', () => {
    const sparql = 'SELECT * WHERE { ?s a ?c ; ?p ?o }';
    expect(statementsToRun(sparql, 'sparql', { cursor: 0, script: true })).toEqual([
      { text: sparql, offset: 0, line: 1, column: 1 },
    ]);
  });

  it('runs nothing for blank text or a blank selection', () => {
    expect(statementsToRun('  ', 'sql', { cursor: 0, script: false })).toEqual([]);
    expect(statementsToRun(text, 'sql', { selection: { start: 9, end: 10 }, cursor: 10, script: false })).toEqual([]);
  });
});

describe('inWholeText', () => {
  const statement = { text: 'SELECT x\nFROM t', offset: 12, line: 2, column: 3 };
  it('moves a position on the statement’s first line by its column', () => {
    expect(inWholeText({ line: 1, column: 8 }, statement)).toEqual({ line: 2, column: 10 });
  });
  it('keeps the column of a position on a later line', () => {
    expect(inWholeText({ line: 2, column: 6 }, statement)).toEqual({ line: 3, column: 6 });
  });
});
