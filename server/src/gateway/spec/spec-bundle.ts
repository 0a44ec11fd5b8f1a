import { LoadError } from '../load-error.js';
import fs from 'node:fs';
import path from 'node:path';
import { escapeToken } from './json-pointer.js';
import { parseSpecText, readSpecText } from './spec-source.js';
import { type SpecLimits } from '../../core/settings.js';

/** Where bundled external documents live in the bundled spec: `#/x-bundled/<path relative to the specs dir>`. */
export const bundledKey = 'x-bundled';

interface LoadedDocument {
  key: string;
  value: unknown;
}

/** True when `child` is `parent` or lies inside it. */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Loads a spec and every file its `$ref`s reach, and returns one document in which every `$ref` is
 * internal, with the (real) paths of the files read. External documents are placed under `x-bundled`. References may only reach files inside
 * `specsDir` (after resolving symlinks); URLs of any scheme are refused, so loading never touches the
 * network or the rest of the file system. Size, file count, nesting depth and node count are bounded.
 */
export function bundleSpec(
  rootFile: string,
  specsDir: string,
  limits: SpecLimits,
): { document: Record<string, unknown>; files: string[] } {
  const displayName = path.basename(rootFile);
  const realSpecsDir = fs.realpathSync(specsDir);
  const realRoot = fs.realpathSync(rootFile);
  const documents = new Map<string, LoadedDocument>();
  const queue: string[] = [realRoot];
  let totalBytes = 0;
  let nodes = 0;

  const prefixOf = (file: string) =>
    file === realRoot ? '#' : `#/${bundledKey}/${escapeToken(path.relative(realSpecsDir, file))}`;

  const targetFile = (ref: string, fromFile: string): string => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('//')) {
      throw new LoadError(
        displayName,
        `$ref "${ref}" in ${path.basename(fromFile)} is not a relative file reference; only files inside the specs directory may be referenced`,
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
  };

  while (queue.length > 0) {
    const file = queue.shift()!;
    if (documents.has(file)) continue;
    if (documents.size >= limits.maxFiles) {
      throw new LoadError(displayName, `references reach more than ${limits.maxFiles} files`);
    }
    const text = readSpecText(file, path.basename(file), limits);
    totalBytes += text.length;
    if (totalBytes > limits.maxTotalBytes) {
      throw new LoadError(displayName, `referenced files add up to more than ${limits.maxTotalBytes} bytes`);
    }
    const value = parseSpecText(text, path.basename(file), limits);
    documents.set(file, { key: prefixOf(file), value });

    // Walk iteratively: documents may nest far deeper than the call stack allows.
    const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      if (node === null || typeof node !== 'object') continue;
      if (++nodes > limits.maxNodes)
        throw new LoadError(displayName, `document has more than ${limits.maxNodes} nodes`);
      if (depth > limits.maxDepth)
        throw new LoadError(displayName, `document is nested deeper than ${limits.maxDepth} levels`);
      const record = node as Record<string, unknown>;
      if (typeof record.$ref === 'string') {
        const hash = record.$ref.indexOf('#');
        const target = hash === -1 ? record.$ref : record.$ref.slice(0, hash);
        const fragment = hash === -1 ? '' : record.$ref.slice(hash + 1);
        const resolved = target === '' ? file : targetFile(target, file);
        if (!documents.has(resolved)) queue.push(resolved);
        record.$ref = prefixOf(resolved) + fragment;
      }
      for (const key of Object.keys(record)) stack.push({ node: record[key], depth: depth + 1 });
    }
  }

  const root = documents.get(realRoot)!.value;
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    throw new LoadError(
      displayName,
      'the document is not an object (an OpenAPI document is a mapping at the top level)',
    );
  }
  const bundled: Record<string, unknown> = {};
  for (const [file, doc] of documents) {
    if (file !== realRoot) bundled[path.relative(realSpecsDir, file)] = doc.value;
  }
  if (Object.keys(bundled).length > 0) (root as Record<string, unknown>)[bundledKey] = bundled;
  return { document: root as Record<string, unknown>, files: [...documents.keys()] };
}
