import fs from 'node:fs';
import path from 'node:path';
import type { BuildFailure, Message, Plugin } from 'esbuild';
import { LoadError } from '../load-error.js';

/** The import name handler modules use for the SDK. */
export const sdkImportName = 'adaptive-workbench/handler';

/** One handler file bundled with its helper modules into a single ES module. */
export interface CompiledHandler {
  /** The real path of the handler file (a mounted ConfigMap file is a symlink). */
  entry: string;
  /** The ES module source; imports the SDK from the running server's own module. */
  code: string;
  /** The source map of `code`; its `sources` are absolute file paths. */
  map: { version: number; sources: string[]; mappings: string; names: string[] };
  /** Absolute paths of the files bundled: the handler and every helper module it imports. */
  inputs: string[];
  /** esbuild's warnings, as `file:line:column: text`. */
  warnings: string[];
}

/** Resolves the SDK import to the server's own module, so handlers share its classes (`Router`, `HTTPException`). */
function sdkPlugin(sdkUrl: string): Plugin {
  return {
    name: 'adaptive-workbench-sdk',
    setup(builder) {
      builder.onResolve({ filter: /^adaptive-workbench\/handler$/ }, () => ({ path: sdkUrl, external: true }));
    },
  };
}

// Bundled CommonJS dependencies call require(); an ES module has none unless it makes one.
const requireBanner =
  "import { createRequire as __adaptiveCreateRequire } from 'node:module'; const require = " +
  '__adaptiveCreateRequire(import.meta.url);';

/** The text of an esbuild message; `line` and `column` (1-based) only when the fault is in the handler file itself. */
function describe(message: Message, dir: string, entries: string[]): { text: string; line?: number; column?: number } {
  const location = message.location;
  if (!location) return { text: message.text };
  const file = path.resolve(dir, location.file);
  if (entries.includes(file)) return { text: message.text, line: location.line, column: location.column + 1 };
  return { text: `${message.text} (in ${path.relative(dir, file)}:${location.line}:${location.column + 1})` };
}

/**
 * Bundles the handler at `filePath` with the relative modules it imports (TypeScript or JavaScript)
 * into one ES module, the SDK import left external and pointed at `sdkUrl`. Throws {@link LoadError}
 * with the position of the first error (syntax error, unresolved import, missing export).
 */
export async function compileHandler(filePath: string, sdkUrl: string): Promise<CompiledHandler> {
  const entry = path.resolve(filePath);
  const dir = path.dirname(entry);
  const fileName = path.basename(entry);
  // esbuild reports real paths; a mounted ConfigMap file is a symlink into `..data/`.
  const entries = [entry, fs.realpathSync(entry)];
  const outfile = path.join(dir, `${fileName}.bundle.mjs`);
  try {
    // Loaded at the first handler, not at start: a server without handlers (one-file mock mode) never needs it.
    const { build } = await import('esbuild');
    const result = await build({
      entryPoints: [entry],
      absWorkingDir: dir,
      outfile,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'external',
      sourcesContent: false,
      metafile: true,
      logLevel: 'silent',
      banner: { js: requireBanner },
      plugins: [sdkPlugin(sdkUrl)],
    });
    const code = result.outputFiles.find((f) => f.path.endsWith('.mjs'))!.text;
    const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith('.map'))!.text) as CompiledHandler['map'];
    map.sources = map.sources.map((source) => path.resolve(dir, source));
    return {
      entry: entries[1],
      code,
      map,
      inputs: Object.keys(result.metafile.inputs).map((input) => path.resolve(dir, input)),
      warnings: result.warnings.map((warning) => {
        const { text, line, column } = describe(warning, dir, entries);
        return line !== undefined ? `${fileName}:${line}:${column}: ${text}` : text;
      }),
    };
  } catch (error) {
    const failure = error as BuildFailure;
    if (!Array.isArray(failure.errors) || failure.errors.length === 0)
      throw new LoadError(fileName, `cannot compile: ${(error as Error).message}`);
    const { text, line, column } = describe(failure.errors[0], dir, entries);
    const more =
      failure.errors.length > 1
        ? ` (and ${failure.errors.length - 1} more error${failure.errors.length > 2 ? 's' : ''})`
        : '';
    throw new LoadError(fileName, `${text}${more}`, line, column);
  }
}
