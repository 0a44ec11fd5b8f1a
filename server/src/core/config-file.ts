import fs from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';

/** A workspace configuration file (health.yaml, query/sources.yaml) with a fault: `file:line:column: message`. */
export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${path.basename(file)}${line !== undefined ? `:${line}:${column ?? 1}` : ''}: ${detail}`);
    this.name = 'ConfigFileError';
  }
}

type Env = Record<string, string | undefined>;
type PathKey = string | number;

/** A parsed configuration file whose values can be traced back to their line. */
export interface ConfigFile {
  file: string;
  value: unknown;
  /** Throws a {@link ConfigFileError} located at the node at `at` (or the nearest parent that exists). */
  fail(at: readonly PathKey[], message: string): never;
}

const variable = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Reads a YAML configuration file; `undefined` when it does not exist. String values may use
 * `${VAR}` and `${VAR:-default}`; they are substituted after parsing, so a variable's value can
 * never change the file's structure. A variable that is unset and has no default is an error.
 */
export function readConfigFile(file: string, env: Env = process.env): ConfigFile | undefined {
  if (!fs.existsSync(file)) return undefined;
  const lineCounter = new LineCounter();
  const document = parseDocument(fs.readFileSync(file, 'utf8'), { lineCounter, uniqueKeys: true, prettyErrors: false });
  const locate = (offset: number | undefined) => (offset === undefined ? undefined : lineCounter.linePos(offset));
  const firstError = document.errors[0];
  if (firstError) {
    const pos = locate(firstError.pos[0]);
    throw new ConfigFileError(file, firstError.message.split('\n')[0], pos?.line, pos?.col);
  }
  const nodeAt = (at: readonly PathKey[]): Node | undefined => {
    for (let length = at.length; length >= 0; length--) {
      const node = document.getIn(at.slice(0, length), true) as Node | undefined;
      if (node && typeof node === 'object' && 'range' in node) return node;
    }
    return document.contents ?? undefined;
  };
  const fail = (at: readonly PathKey[], message: string): never => {
    const pos = locate(nodeAt(at)?.range?.[0]);
    throw new ConfigFileError(file, message, pos?.line, pos?.col);
  };
  const substitute = (node: unknown, at: PathKey[]): void => {
    if (isMap(node))
      for (const pair of node.items)
        substitute(pair.value, [...at, String(isScalar(pair.key) ? pair.key.value : pair.key)]);
    else if (isSeq(node)) node.items.forEach((item, i) => substitute(item, [...at, i]));
    else if (isScalar(node) && typeof node.value === 'string') {
      node.value = node.value.replace(variable, (_, name: string, fallback: string | undefined) => {
        const value = env[name];
        if (value !== undefined && value !== '') return value;
        if (fallback !== undefined) return fallback;
        return fail(at, `environment variable ${name} is not set (write \${${name}:-default} to give a default)`);
      });
    }
  };
  substitute(document.contents, []);
  return { file, value: document.toJS({ maxAliasCount: 100 }), fail };
}
