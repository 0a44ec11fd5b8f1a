import path from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Document, type Node } from 'yaml';
import { lineAndColumn } from '../../core/text-position.js';
import { bundledKey } from '../model/document-keys.js';

/** A 1-based line and column in a file. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** A place in a spec: the file (its path relative to the specs folder) and the position, when found. */
export interface SourcePlace {
  file: string;
  position?: SourcePosition;
}

const methodKeys = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Unescapes one JSON pointer token (`~1` -> `/`, `~0` -> `~`). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * A readable name of a place in an OpenAPI document, from its path of keys: `GET /orders/{orderId}` for
 * `/paths/~1orders~1{orderId}/get`, with what lies below appended (`GET /orders responses.200`).
 */
export function readableLocation(tokens: readonly string[]): string {
  if (tokens[0] === 'paths' && tokens.length >= 2) {
    const method = tokens[2];
    if (method !== undefined && methodKeys.has(method)) {
      const rest = tokens.slice(3);
      return `${method.toUpperCase()} ${tokens[1]}${rest.length > 0 ? ` ${rest.join('.')}` : ''}`;
    }
    const rest = tokens.slice(2);
    return `path ${tokens[1]}${rest.length > 0 ? ` ${rest.join('.')}` : ''}`;
  }
  return tokens.length === 0 ? 'the document' : tokens.join('.');
}

/** The node at `token` of a YAML map or sequence, with the node that names it (the key) for a map. */
function childOf(node: unknown, token: string): { value: unknown; key?: Node } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((item) => (isScalar(item.key) ? String(item.key.value) : item.key) === token);
    return pair ? { value: pair.value, key: pair.key as Node } : undefined;
  }
  if (isSeq(node) && /^\d+$/.test(token)) {
    const item = node.items[Number(token)];
    return item === undefined ? undefined : { value: item };
  }
  return undefined;
}

/**
 * The texts of the files of one spec, and where a value lies in them. Positions are looked up only when a
 * finding needs one: the file is parsed again with positions then (YAML and JSON alike), once per file.
 */
export class SourcePositions {
  private readonly texts = new Map<string, string>();
  private readonly parsed = new Map<string, Document>();

  constructor(private readonly specsDir: string) {}

  /** Remembers the text of a file read for the spec (by real path). */
  add(file: string, text: string): void {
    this.texts.set(file, text);
  }

  /**
   * Where the value at `tokens` of `file` is written: the position of its key when it is a mapping entry (the
   * line of `$ref:` rather than of its string), of the value itself in a sequence, or of the deepest part of
   * the path that exists.
   */
  positionIn(file: string, tokens: readonly string[]): SourcePosition | undefined {
    const text = this.texts.get(file);
    if (text === undefined) return undefined;
    let document = this.parsed.get(file);
    if (document === undefined) {
      document = parseDocument(text, { keepSourceTokens: false, uniqueKeys: false });
      this.parsed.set(file, document);
    }
    let node: unknown = document.contents;
    let at: Node | undefined = node as Node | undefined;
    for (const token of tokens) {
      const child = childOf(node, token);
      if (child === undefined) break;
      node = child.value;
      at = child.key ?? (child.value as Node);
    }
    const offset = at?.range?.[0];
    return offset === undefined ? undefined : lineAndColumn(text, offset);
  }

  /**
   * The file and position of a JSON pointer's tokens in the bundled document of `rootFile`: a pointer under
   * `x-bundled` is a place in the referenced file it names.
   */
  placeOf(rootFile: string, tokens: readonly string[]): SourcePlace {
    if (tokens[0] === bundledKey && tokens.length >= 2) {
      const file = path.resolve(this.specsDir, tokens[1]);
      return { file: tokens[1], position: this.positionIn(file, tokens.slice(2)) };
    }
    return { file: path.basename(rootFile), position: this.positionIn(rootFile, tokens) };
  }
}

/**
 * A warning as `file:line:column: text` when its place is in the spec's own file (the form the workbench reads
 * a position from), else with the other file's place in the text.
 */
export function positionedWarning(place: SourcePlace, rootName: string, text: string): string {
  const { file, position } = place;
  if (file === rootName) return position === undefined ? text : `${file}:${position.line}:${position.column}: ${text}`;
  return position === undefined ? `${text} (in ${file})` : `${text} (${file}:${position.line})`;
}
