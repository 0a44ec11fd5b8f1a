import path from 'node:path';
import { LoadError } from '../load-error.js';
import { resolvePointer } from '../model/json-pointer.js';
import { readableLocation, unescapePointerToken, type SourcePositions } from './source-positions.js';

/** One `$ref` as written in a file of a spec: the object holding it and where it points. */
export interface WrittenReference {
  /** Real path of the file the `$ref` is written in. */
  file: string;
  /** The object whose `$ref` it is. */
  holder: object;
  /** The `$ref` as written. */
  ref: string;
  /** Real path of the file it points into. */
  target: string;
  /** The JSON pointer part after `#` (without it). */
  fragment: string;
}

/** The most broken `$ref`s one load error lists after the first. */
const maxListed = 5;

/** The tokens of the path from `root` to the object `wanted` (found by identity), or undefined. */
function pathTo(root: unknown, wanted: object): string[] | undefined {
  const stack: Array<{ node: unknown; tokens: string[] }> = [{ node: root, tokens: [] }];
  while (stack.length > 0) {
    const { node, tokens } = stack.pop()!;
    if (node === wanted) return tokens;
    if (node === null || typeof node !== 'object') continue;
    for (const [key, child] of Object.entries(node)) {
      if (child !== null && typeof child === 'object') stack.push({ node: child, tokens: [...tokens, key] });
    }
  }
  return undefined;
}

/** Why a fragment does not resolve in `document`: the first token that is missing, and where. */
function whyUnresolved(document: unknown, fragment: string): string {
  const tokens = fragment.split('/').slice(1);
  let node = document;
  for (let index = 0; index < tokens.length; index++) {
    let token = tokens[index];
    try {
      token = decodeURIComponent(token);
    } catch {
      // Kept as written: the lookup fails on it, which is what the message says.
    }
    token = unescapePointerToken(token);
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) {
      const parent = tokens.slice(0, index).join('/');
      return `there is no "${token}" in #/${parent}`;
    }
    node = (node as Record<string, unknown>)[token];
  }
  return 'it does not resolve';
}

/** A `$ref` written in a spec file, placed: its file name, line, column and readable location. */
export interface PlacedReference {
  fileName: string;
  line?: number;
  column?: number;
  /** `GET /orders responses.200...: ` or empty when the place is unknown. */
  where: string;
}

/** Where the `$ref` of `holder` (in `file`, whose parsed document is `document`) is written. */
export function placeReference(
  positions: SourcePositions,
  specsDir: string,
  file: string,
  document: unknown,
  holder: object,
): PlacedReference {
  const tokens = pathTo(document, holder);
  const position = tokens === undefined ? undefined : positions.positionIn(file, [...tokens, '$ref']);
  return {
    fileName: path.relative(specsDir, file),
    line: position?.line,
    column: position?.column,
    where: tokens === undefined ? '' : `${readableLocation(tokens)}: `,
  };
}

/**
 * Checks that every JSON-pointer `$ref` (`#`, `#/a/b`, `other.yaml#/a`) of a spec's files points at a value.
 * Plain-name fragments (`#anchor`, JSON Schema 2020-12) are left to the schema validator. Throws one
 * {@link LoadError} naming the first broken `$ref` with its position (line and column when it is in the root
 * file, else in the message) and listing a few more.
 */
export function checkReferences(
  references: readonly WrittenReference[],
  documents: ReadonlyMap<string, unknown>,
  positions: SourcePositions,
  context: { rootFile: string; displayName: string; specsDir: string },
): void {
  const broken = references.filter(
    (r) =>
      (r.fragment === '' || r.fragment.startsWith('/')) &&
      resolvePointer(documents.get(r.target), `#${r.fragment}`) === undefined,
  );
  if (broken.length === 0) return;
  const placed = broken.map((reference) => ({
    reference,
    place: placeReference(positions, context.specsDir, reference.file, documents.get(reference.file), reference.holder),
  }));
  // The root file first, then in the order of the text.
  placed.sort(
    (a, b) =>
      Number(b.reference.file === context.rootFile) - Number(a.reference.file === context.rootFile) ||
      a.place.fileName.localeCompare(b.place.fileName) ||
      (a.place.line ?? 0) - (b.place.line ?? 0),
  );
  const [first, ...others] = placed;
  const inRoot = first.reference.file === context.rootFile;
  const describe = ({ reference, place }: (typeof placed)[number], withFile: boolean) => {
    const at = withFile
      ? ` (${place.fileName}${place.line === undefined ? '' : `:${place.line}:${place.column}`})`
      : '';
    const target = documents.get(reference.target);
    return `${place.where}$ref "${reference.ref}" does not resolve${at}: ${whyUnresolved(target, reference.fragment)}`;
  };
  let message = describe(first, !inRoot);
  if (others.length > 0) {
    const listed = others
      .slice(0, maxListed)
      .map(({ reference, place }) => `"${reference.ref}" at ${place.fileName}:${place.line ?? '?'}`);
    const unlisted = others.length - listed.length;
    message += `; ${others.length} more broken $ref${others.length === 1 ? '' : 's'}: ${listed.join(', ')}`;
    if (unlisted > 0) message += `, and ${unlisted} more`;
  }
  throw new LoadError(
    context.displayName,
    message,
    inRoot ? first.place.line : undefined,
    inRoot ? first.place.column : undefined,
  );
}
