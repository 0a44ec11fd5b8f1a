/** A place in a query: line and column from 1 (a type, so it spreads into an error body's extra fields). */
export type SourcePosition = { line: number; column: number };

/** What sparqljs's (Jison) parser attaches to a syntax error: where the last token it took is. */
interface ParserErrorHash {
  loc?: { first_line: number; first_column: number; last_line: number; last_column: number };
}

/** Whitespace and comments, which the parser skips between tokens. */
const skipped = /(?:\s|#[^\n]*)*/y;

/**
 * Comments, IRIs and string literals (where `foo:` is no prefixed name), or the prefixed name itself
 * (not inside a longer name). Group 1 is set only by the prefixed name.
 */
function prefixedNameScanner(prefix: string): RegExp {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const notNames = [
    String.raw`#[^\n]*`,
    String.raw`<[^<>"{}|^\x60\\\s]*>`,
    String.raw`"""[\s\S]*?"""`,
    String.raw`'''[\s\S]*?'''`,
    String.raw`"(?:[^"\\\n]|\\.)*"`,
    String.raw`'(?:[^'\\\n]|\\.)*'`,
  ];
  return new RegExp(`${notNames.join('|')}|(?<![\\w.:-])(${escaped}:)`, 'g');
}

function positionAt(text: string, offset: number): SourcePosition {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const end = text.indexOf('\n', offset);
    if (end === -1) return text.length;
    offset = end + 1;
  }
  return Math.min(offset + column, text.length);
}

/**
 * Where a SPARQL parse error is, for the editor to mark: the token after the last one the parser took
 * (which is what it refused), or, for a prefix that was never declared (sparqljs names only the prefix),
 * its first use. Undefined when neither says.
 */
export function syntaxErrorPosition(
  text: string,
  error: Error & { hash?: ParserErrorHash },
): SourcePosition | undefined {
  const unknownPrefix = /^Unknown prefix: (.*)$/.exec(error.message)?.[1];
  if (unknownPrefix !== undefined) {
    for (const match of text.matchAll(prefixedNameScanner(unknownPrefix)))
      if (match[1] !== undefined) return positionAt(text, match.index);
    return undefined;
  }
  const loc = error.hash?.loc;
  if (!loc) return undefined;
  // Jison's columns count from 0; the refused token follows the last one taken, after blanks and comments.
  skipped.lastIndex = offsetOf(text, loc.last_line, loc.last_column);
  skipped.exec(text);
  return positionAt(text, Math.min(skipped.lastIndex, text.length));
}
