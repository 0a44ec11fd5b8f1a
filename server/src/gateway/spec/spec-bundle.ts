import { LoadError } from '../load-error.js';
import fs from 'node:fs';
import path from 'node:path';
import { escapeToken } from './json-pointer.js';
import { parseSpecText, readSpecText } from './spec-source.js';
import { type SpecLimits } from '../../core/settings.js';

/** Where bundled external documents live in the bundled spec: `#/x-bundled/<path relative to the specs dir>`. */
export const bundledKey = 'x-bundled';

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
  private readonly displayName: string;
  private readonly realSpecsDir: string;
  private readonly realRoot: string;
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
      this.rewriteReferences(file, value);
    }
  }

  /** Where a file's document lives in the bundled spec. */
  private prefixOf(file: string): string {
    return file === this.realRoot ? '#' : `#/${bundledKey}/${escapeToken(path.relative(this.realSpecsDir, file))}`;
  }

  /** Points every `$ref` of `value` (read from `file`) into the bundled spec, queueing the files they reach. */
  private rewriteReferences(file: string, value: unknown): void {
    const { displayName, limits } = this;
    // Walk iteratively: documents may nest far deeper than the call stack allows.
    const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      if (node === null || typeof node !== 'object') continue;
      if (++this.nodes > limits.maxNodes)
        throw new LoadError(displayName, `document has more than ${limits.maxNodes} nodes`);
      if (depth > limits.maxDepth)
        throw new LoadError(displayName, `document is nested deeper than ${limits.maxDepth} levels`);
      const record = node as Record<string, unknown>;
      if (typeof record.$ref === 'string') {
        const hash = record.$ref.indexOf('#');
        const target = hash === -1 ? record.$ref : record.$ref.slice(0, hash);
        const fragment = hash === -1 ? '' : record.$ref.slice(hash + 1);
        const resolved = target === '' ? file : this.targetFile(target, file);
        if (!this.documents.has(resolved)) this.queue.push(resolved);
        record.$ref = this.prefixOf(resolved) + fragment;
      }
      for (const key of Object.keys(record)) stack.push({ node: record[key], depth: depth + 1 });
    }
  }

  /** The real path of the file a relative `$ref` of `fromFile` names, refused unless it is inside the specs dir. */
  private targetFile(ref: string, fromFile: string): string {
    const { displayName, realSpecsDir } = this;
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('//')) {
      throw new LoadError(
        displayName,
        `$ref "${ref}" in ${path.basename(fromFile)} is not a relative file reference; only files inside the ` +
          `specs directory may be referenced`,
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
      throw new LoadError(
        displayName,
        `$ref "${ref}" in ${path.basename(fromFile)} points outside the specs directory`,
      );
    }
    let real: string;
    try {
      real = fs.realpathSync(candidate);
    } catch {
      throw new LoadError(displayName, `$ref "${ref}" in ${path.basename(fromFile)}: file not found`);
    }
    if (!isInside(realSpecsDir, real)) {
      throw new LoadError(
        displayName,
        `$ref "${ref}" in ${path.basename(fromFile)} points outside the specs directory`,
      );
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

/**
 * Loads a spec and every file its `$ref`s reach, and returns one document in which every `$ref` is
 * internal, with the (real) paths of the files read. External documents are placed under `x-bundled`. References may
 * only reach files inside
 * `specsDir` (after resolving symlinks); URLs of any scheme are refused, so loading never touches the
 * network or the rest of the file system. Size, file count, nesting depth and node count are bounded.
 */
export function bundleSpec(
  rootFile: string,
  specsDir: string,
  limits: SpecLimits,
): { document: Record<string, unknown>; files: string[] } {
  const bundler = new SpecBundler(rootFile, specsDir, limits);
  bundler.readAll();
  return { document: bundler.bundled(), files: [...bundler.documents.keys()] };
}
