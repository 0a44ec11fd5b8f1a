import { isMap, isNode, isScalar, parseDocument, type Document } from 'yaml';
import { httpError } from '../../core/errors.js';
import { isObject } from '../../core/json.js';

/**
 * A spec file's tree as the workbench's proposals edit it, by path of keys (`['paths', '/pets', 'get']`),
 * whatever the file's format: YAML keeps its comments and layout, JSON is written back indented.
 */
export interface SpecTree {
  /** The value at `path` as plain JSON, or `undefined`. */
  get(path: readonly string[]): unknown;
  /** Sets the value at `path`, creating the maps on the way. */
  set(path: readonly string[], value: unknown): void;
  delete(path: readonly string[]): void;
}

/** A key as text: YAML reads `200:` as the number 200, a path segment is the string `"200"`. */
function keyText(key: unknown): string {
  return String(isScalar(key) ? key.value : key);
}

/** A YAML document edited through its Document API, so comments, quotes and flow collections stay as written. */
class YamlTree implements SpecTree {
  constructor(private readonly doc: Document) {}

  /** The document's own key nodes for `path` where they exist (`200` for `"200"`), the segments beyond. */
  private keys(path: readonly string[]): unknown[] {
    let node: unknown = this.doc.contents;
    return path.map((segment) => {
      const pair = isMap(node) ? node.items.find((p) => keyText(p.key) === segment) : undefined;
      node = pair?.value;
      return pair ? pair.key : segment;
    });
  }

  get(path: readonly string[]): unknown {
    const value = this.doc.getIn(this.keys(path), true);
    return isNode(value) ? value.toJSON() : value;
  }

  set(path: readonly string[], value: unknown): void {
    const keys = this.keys(path);
    const current = this.doc.getIn(keys, true);
    // A scalar keeps its node (and the comment beside it) when only its value changes.
    if (isScalar(current) && (value === null || typeof value !== 'object')) current.value = value;
    else this.doc.setIn(keys, this.doc.createNode(value));
  }

  delete(path: readonly string[]): void {
    this.doc.deleteIn(this.keys(path));
  }
}

/** A JSON document as plain objects. */
class JsonTree implements SpecTree {
  constructor(readonly root: Record<string, unknown>) {}

  get(path: readonly string[]): unknown {
    let node: unknown = this.root;
    for (const key of path) node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    return node;
  }

  set(path: readonly string[], value: unknown): void {
    let node = this.root;
    for (const key of path.slice(0, -1)) {
      if (!isObject(node[key])) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[path[path.length - 1]] = value;
  }

  delete(path: readonly string[]): void {
    const parent = this.get(path.slice(0, -1));
    if (isObject(parent)) delete parent[path[path.length - 1]];
  }
}

/** How the file lays out YAML, so that a rewrite changes only what was edited. */
function yamlLayout(text: string): { lineWidth: number; indent: number; indentSeq: boolean } {
  const lines = text.split('\n');
  const nested = lines.find((line) => /^ +[^\s#-]/.test(line));
  const indent = nested ? nested.length - nested.trimStart().length : 2;
  const seq = /^( *)[^\s#][^\n]*:[ \t]*\n( *)- /m.exec(text);
  // Lines as long as the longest one stay unfolded, as they were written.
  const lineWidth = Math.max(80, ...lines.map((line) => line.length + 1));
  return { lineWidth, indent, indentSeq: seq ? seq[2].length > seq[1].length : true };
}

/**
 * Applies `change` to the spec text of `file` and returns the new text, or throws 409 `SPEC_EDIT_CONFLICT`
 * when the text does not parse. YAML is edited through the `yaml` package's Document API (comments and
 * formatting kept); JSON is parsed and written back with the file's indentation.
 */
export function editSpecText<T>(
  text: string,
  file: string,
  change: (tree: SpecTree) => T,
): { text: string; result: T } {
  if (/\.json$/i.test(file)) {
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch (error) {
      throw httpError('SPEC_EDIT_CONFLICT', [file, `it is not valid JSON now (${(error as Error).message})`]);
    }
    if (!isObject(root)) throw httpError('SPEC_EDIT_CONFLICT', [file, 'it is not a JSON object']);
    const result = change(new JsonTree(root));
    const indent = /^\{\s*\n([ \t]+)/.exec(text)?.[1] ?? '  ';
    return { text: JSON.stringify(root, null, indent) + (text.endsWith('\n') ? '\n' : ''), result };
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0)
    throw httpError('SPEC_EDIT_CONFLICT', [file, `it is not valid YAML now (${doc.errors[0].message})`]);
  if (!isMap(doc.contents)) throw httpError('SPEC_EDIT_CONFLICT', [file, 'it is not a YAML mapping']);
  const result = change(new YamlTree(doc));
  return { text: doc.toString({ ...yamlLayout(text), flowCollectionPadding: false }), result };
}

/** Follows local `$ref`s along `path` (`#/components/responses/Pet`): the path where the value really is. */
export function resolvedPath(tree: SpecTree, path: readonly string[]): string[] | undefined {
  let at: string[] = [];
  for (const segment of path) {
    at = [...at, segment];
    const ref = tree.get([...at, '$ref']);
    if (ref === undefined) continue;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
    at = ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return at;
}
