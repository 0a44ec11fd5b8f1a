/** Line and column (1-based) of a character offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** The string index of a UTF-8 byte offset (DuckDB reports positions in bytes). */
export function charOffset(text: string, byteOffset: number): number {
  return Buffer.from(text, 'utf8').subarray(0, Math.max(0, byteOffset)).toString('utf8').length;
}
