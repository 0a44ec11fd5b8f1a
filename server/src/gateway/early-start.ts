import fs from 'node:fs';
import { serverSpecLimits } from '../core/settings.js';
import { specWorkerPool } from './spec/spec-loader.js';
import type { OpenApiVersion } from './spec/structure.js';

/** How much of a spec file is read for its version: the `openapi` key comes first in nearly every document. */
const headBytes = 4096;

/**
 * The OpenAPI version a spec file declares near its start, as a hint (`undefined` when it cannot say at a glance);
 * Swagger 2.0 is converted to 3.0 before it is checked.
 */
export function declaredVersion(file: string): OpenApiVersion | undefined {
  let head: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(headBytes);
      head = buffer.toString('utf8', 0, fs.readSync(fd, buffer, 0, headBytes, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const match = /^[\s{]*["']?(openapi|swagger)["']?\s*:\s*["']?(\d+\.\d+)/m.exec(head);
  if (!match) return undefined;
  if (match[1] === 'swagger' || match[2] === '3.0') return '3.0';
  return match[2] === '3.1' ? '3.1' : undefined;
}

/**
 * The gateway's second entry, for the command alone: what may start before the gateway's own modules load, so that
 * it runs on another core meanwhile. Imports nothing heavy (the rest of the gateway comes through `index.ts`). Given
 * spec files (one-file mode), the worker also compiles the meta-schemas of the versions they declare.
 */
export function prestartSpecWorker(maxHeapMb: number, workbench: boolean, specPaths: readonly string[]): void {
  const versions = new Set(specPaths.map(declaredVersion).filter((version) => version !== undefined));
  specWorkerPool(serverSpecLimits(maxHeapMb, workbench)).prestart([...versions]);
}
