import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A position in a source file; `line` and `column` are 1-based. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

// `at fn (file:///x.mjs:3:7)`, `at file:///x.mjs:3:7`, `at /x.mjs:3:7`, `at C:\x.mjs:3:7`
const framePattern = /((?:file:\/\/)?\/[^\s()]*?|[A-Za-z]:\\[^\s()]*?):(\d+):(\d+)/g;

/** The file path of a stack location; `undefined` for a malformed URL. */
function toPath(location: string): string | undefined {
  if (!location.startsWith('file://')) return location;
  try {
    return fileURLToPath(location);
  } catch {
    return undefined;
  }
}

/**
 * The source map of a compiled handler bundle evaluated from `bundlePath`. Its `sources` are written
 * relative to the bundle's folder, the form every consumer resolves alike (Node's
 * `--enable-source-maps`, Vite's module runner, this class).
 */
export class BundleSourceMap {
  private readonly map: SourceMap;
  /** The `//# sourceMappingURL=` comment to append to the bundle. */
  readonly comment: string;

  /**
   * @param bundlePath the file the bundle is evaluated from
   * @param payload the bundle's source map, whose `sources` are absolute file paths
   */
  constructor(
    private readonly bundlePath: string,
    payload: { version: number; sources: string[]; mappings: string; names: string[] },
  ) {
    const dir = path.dirname(bundlePath);
    const relative = {
      ...payload,
      sources: payload.sources.map((source) => path.relative(dir, source).split(path.sep).join('/')),
    };
    this.map = new SourceMap(relative as SourceMapPayload);
    const encoded = Buffer.from(JSON.stringify(relative)).toString('base64');
    this.comment = `\n//# sourceMappingURL=data:application/json;base64,${encoded}\n`;
  }

  /** The original position of a 1-based position in the bundle, when the map has one. */
  original(line: number, column: number): SourcePosition | undefined {
    const entry = this.map.findEntry(line - 1, column - 1) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
    };
    if (entry.originalSource === undefined || entry.originalLine === undefined) return undefined;
    const file = path.resolve(path.dirname(this.bundlePath), entry.originalSource);
    return { file, line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1 };
  }

  /** One stack location as a source position: positions in the bundle are mapped, others kept. */
  private resolve(location: string, line: number, column: number): SourcePosition | undefined {
    const file = toPath(location);
    if (file === undefined) return undefined;
    return file === this.bundlePath ? this.original(line, column) : { file, line, column };
  }

  /** The stack with every bundle frame rewritten to its original file and position. */
  mapStack(stack: string): string {
    return stack.replace(framePattern, (whole, location: string, line: string, column: string) => {
      if (toPath(location) !== this.bundlePath) return whole;
      const position = this.original(Number(line), Number(column));
      return position ? `${position.file}:${position.line}:${position.column}` : whole;
    });
  }

  /** The first frame of `stack` that lies in one of `files` (the handler and its helpers). */
  firstFrameIn(stack: string, files: readonly string[]): SourcePosition | undefined {
    for (const match of stack.matchAll(framePattern)) {
      const position = this.resolve(match[1], Number(match[2]), Number(match[3]));
      if (position && files.includes(position.file)) return position;
    }
    return undefined;
  }
}
