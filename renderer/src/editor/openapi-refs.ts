import { isPair, isScalar, LineCounter, parseDocument, visit } from 'yaml';

/** A local `$ref` of a spec that points at nothing, with the range of its `$ref: ...` entry (1-based). */
export interface BrokenRef {
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** Texts longer than this are left to the server's check at save: parsing them on every pause would stall typing. */
const maxCheckedLength = 2_000_000;

/**
 * Values that are data, not description, as the server's loader reads them: examples, defaults and
 * extensions (`x-...`), except where a key names a schema (`properties`, ...). A `$ref` there is not checked.
 */
const dataKeys = new Set(['example', 'examples', 'default']);
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function unescapeToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Kept as written: the lookup then fails on it.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Why `#<fragment>` does not resolve in `document`, or undefined when it does. */
function unresolved(document: unknown, fragment: string): string | undefined {
  const tokens = fragment.split('/').slice(1).map(unescapeToken);
  let node = document;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) {
      return `there is no "${token}" in #/${fragment
        .split('/')
        .slice(1, index + 1)
        .join('/')}`;
    }
    node = (node as Record<string, unknown>)[token];
  }
  return undefined;
}

/** The keys of the mapping entries on the way from the document to a node (`visit`'s ancestor path). */
function keysOf(ancestors: readonly unknown[]): string[] {
  return ancestors.filter(isPair).map((pair) => (isScalar(pair.key) ? String(pair.key.value) : ''));
}

function isInData(keys: readonly string[]): boolean {
  return keys.some(
    (key, index) =>
      !schemaMaps.has(keys[index - 1]) &&
      (dataKeys.has(key) || (key.startsWith('x-') && !(index === 0 && key === 'x-bundled'))),
  );
}

/**
 * The `$ref`s of a YAML or JSON spec that point into the same document (`#/components/schemas/Order`) at
 * nothing, as the server's loader reports them (it also checks references to other files, which the editor
 * cannot read). A text that does not parse gives none: the syntax check flags it already.
 */
export function brokenLocalRefs(text: string): BrokenRef[] {
  if (text.length > maxCheckedLength) return [];
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (document.errors.length > 0) return [];
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 1000 });
  } catch {
    return [];
  }
  const found: BrokenRef[] = [];
  visit(document, {
    Pair(_, pair, ancestors) {
      if (!isScalar(pair.key) || pair.key.value !== '$ref' || !isScalar(pair.value)) return;
      const ref = pair.value.value;
      if (typeof ref !== 'string' || !ref.startsWith('#') || !(ref === '#' || ref.startsWith('#/'))) return;
      if (isInData(keysOf(ancestors))) return;
      const why = unresolved(value, ref.slice(1));
      if (why === undefined) return;
      const start = lineCounter.linePos(pair.key.range?.[0] ?? 0);
      const end = lineCounter.linePos(pair.value.range?.[1] ?? 0);
      found.push({
        message: `$ref "${ref}" does not resolve: ${why}`,
        line: start.line,
        column: start.col,
        endLine: end.line,
        endColumn: end.col,
      });
    },
  });
  return found;
}
