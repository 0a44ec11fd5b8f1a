import { LoadError } from '../load-error.js';
import fs from 'node:fs';
import path from 'node:path';
import { escapeToken } from '../model/json-pointer.js';
import { parseSpecText, readSpecText } from './spec-source.js';
import { type SpecLimits } from '../../core/settings.js';
import { bundledKey, isData } from '../model/document-keys.js';
import { SourcePositions, type SourcePlace } from './source-positions.js';
import { checkReferences, placeReference, type WrittenReference } from './ref-check.js';

export { bundledKey };

/** True when `child` is `parent` or lies inside it. */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * One bundling: the documents read so far (by real path), the files still to read, and the budget
 * (bytes, nodes) they share. Errors name the root file, the one the user knows.
 */
class SpecBundler {
  /** The parsed document of every file read, by real path. */
  readonly documents = new Map<string, unknown>();
  /** The texts read, for the positions of findings. */
  readonly positions: SourcePositions;
  /** Every `$ref` of the description (not of examples, defaults or extensions), as written. */
  private readonly references: WrittenReference[] = [];
  private readonly displayName: string;
  private readonly realSpecsDir: string;
  readonly realRoot: string;
  private readonly queue: string[];
  private totalBytes = 0;
  private nodes = 0;

  constructor(
    rootFile: string,
    specsDir: string,
    private readonly limits: SpecLimits,
  ) {
    this.displayName = path.basename(rootFile);
    this.realSpecsDir = fs.realpathSync(specsDir);
    this.realRoot = fs.realpathSync(rootFile);
    this.queue = [this.realRoot];
    this.positions = new SourcePositions(this.realSpecsDir);
  }

  /** Reads the root file and every file its references reach, rewriting each `$ref` to an internal one. */
  readAll(): void {
    const { displayName, limits } = this;
    while (this.queue.length > 0) {
      const file = this.queue.shift()!;
      if (this.documents.has(file)) continue;
      if (this.documents.size >= limits.maxFiles) {
        throw new LoadError(displayName, `references reach more than ${limits.maxFiles} files`);
      }
      const text = readSpecText(file, path.basename(file), limits);
      this.totalBytes += text.length;
      if (this.totalBytes > limits.maxTotalBytes) {
        throw new LoadError(displayName, `referenced files add up to more than ${limits.maxTotalBytes} bytes`);
      }
      const value = parseSpecText(text, path.basename(file), limits);
      this.documents.set(file, value);
      this.positions.add(file, text);
      this.rewriteReferences(file, value);
    }
    checkReferences(this.references, this.documents, this.positions, {
      rootFile: this.realRoot,
      displayName,
      specsDir: this.realSpecsDir,
    });
  }

  /** Where a file's document lives in the bundled spec. */
  private prefixOf(file: string): string {
    return file === this.realRoot ? '#' : `#/${bundledKey}/${escapeToken(path.relative(this.realSpecsDir, file))}`;
  }

  /**
   * Points every `$ref` of `value` (read from `file`) into the bundled spec, queueing the files they reach, and
   * notes those of the description (not in examples, defaults or extensions) for the check that they resolve.
   */
  private rewriteReferences(file: string, value: unknown): void {
    const { displayName, limits } = this;
    // Walk iteratively: documents may nest far deeper than the call stack allows.
    const stack: Array<{ node: unknown; depth: number; key?: string; data: boolean }> = [
      { node: value, depth: 0, data: false },
    ];
    while (stack.length > 0) {
      const { node, depth, key, data } = stack.pop()!;
      if (node === null || typeof node !== 'object') continue;
      if (++this.nodes > limits.maxNodes)
        throw new LoadError(displayName, `document has more than ${limits.maxNodes} nodes`);
      if (depth > limits.maxDepth)
        throw new LoadError(displayName, `document is nested deeper than ${limits.maxDepth} levels`);
      const record = node as Record<string, unknown>;
      if (typeof record.$ref === 'string') this.rewriteReference(file, record, value, data);
      const isArray = Array.isArray(node);
      for (const child of Object.keys(record)) {
        const childData = data || (!isArray && isData(child, key, depth === 0));
        stack.push({ node: record[child], depth: depth + 1, key: isArray ? key : child, data: childData });
      }
    }
  }

  /** Rewrites the `$ref` of `record` (in `file`, whose document is `document`) and notes it. */
  private rewriteReference(file: string, record: Record<string, unknown>, document: unknown, data: boolean): void {
    const ref = record.$ref as string;
    const hash = ref.indexOf('#');
    const target = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? '' : ref.slice(hash + 1);
    let resolved = file;
    try {
      if (target !== '') resolved = this.targetFile(target, file);
    } catch (error) {
      throw this.placed(error as LoadError, file, document, record);
    }
    if (!this.documents.has(resolved)) this.queue.push(resolved);
    record.$ref = this.prefixOf(resolved) + fragment;
    if (!data) this.references.push({ file, holder: record, ref, target: resolved, fragment });
  }

  /** `error` about the `$ref` of `record`, with its position: line and column in the root file, else in the text. */
  private placed(error: LoadError, file: string, document: unknown, record: object): LoadError {
    const place = placeReference(this.positions, this.realSpecsDir, file, document, record);
    if (file === this.realRoot) return new LoadError(error.file, place.where + error.message, place.line, place.column);
    const at = place.line === undefined ? '' : `:${place.line}:${place.column}`;
    return new LoadError(error.file, `${place.where}${error.message} (${place.fileName}${at})`);
  }

  /** The real path of the file a relative `$ref` of `fromFile` names, refused unless it is inside the specs dir. */
  private targetFile(ref: string, fromFile: string): string {
    const { displayName, realSpecsDir } = this;
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('//')) {
      throw new LoadError(
        displayName,
        `$ref "${ref}" is not a relative file reference; only files inside the ` + `specs directory may be referenced`,
      );
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(ref);
    } catch {
      throw new LoadError(displayName, `$ref "${ref}" is not a valid URI reference`);
    }
    const candidate = path.resolve(path.dirname(fromFile), decoded);
    // Refuse before touching the file system: even a failed lookup would tell whether a path outside exists.
    if (!isInside(realSpecsDir, candidate)) {
      throw new LoadError(displayName, `$ref "${ref}" points outside the specs directory`);
    }
    let real: string;
    try {
      real = fs.realpathSync(candidate);
    } catch {
      throw new LoadError(displayName, `$ref "${ref}": file not found`);
    }
    if (!isInside(realSpecsDir, real)) {
      throw new LoadError(displayName, `$ref "${ref}" points outside the specs directory`);
    }
    return real;
  }

  /** The root document with the other documents under {@link bundledKey}. */
  bundled(): Record<string, unknown> {
    const root = this.documents.get(this.realRoot);
    if (root === null || typeof root !== 'object' || Array.isArray(root)) {
      throw new LoadError(
        this.displayName,
        'the document is not an object (an OpenAPI document is a mapping at the top level)',
      );
    }
    const bundled: Record<string, unknown> = {};
    for (const [file, value] of this.documents) {
      if (file !== this.realRoot) bundled[path.relative(this.realSpecsDir, file)] = value;
    }
    if (Object.keys(bundled).length > 0) (root as Record<string, unknown>)[bundledKey] = bundled;
    return root as Record<string, unknown>;
  }
}

/** A spec with every file its `$ref`s reach. */
export interface BundledSpec {
  /** The root document, every `$ref` internal, the other files under {@link bundledKey}. */
  document: Record<string, unknown>;
  /** The real paths of the files read. */
  files: string[];
  /** Where the value at a JSON pointer's tokens of `document` is written (file and position). */
  locate(tokens: readonly string[]): SourcePlace;
}

/**
 * Loads a spec and every file its `$ref`s reach, and returns one document in which every `$ref` is
 * internal, with the (real) paths of the files read. External documents are placed under `x-bundled`. References may
 * only reach files inside
 * `specsDir` (after resolving symlinks); URLs of any scheme are refused, so loading never touches the
 * network or the rest of the file system. Size, file count, nesting depth and node count are bounded.
 */
export function bundleSpec(rootFile: string, specsDir: string, limits: SpecLimits): BundledSpec {
  const bundler = new SpecBundler(rootFile, specsDir, limits);
  bundler.readAll();
  return {
    document: bundler.bundled(),
    files: [...bundler.documents.keys()],
    locate: (tokens) => bundler.positions.placeOf(bundler.realRoot, tokens),
  };
}
