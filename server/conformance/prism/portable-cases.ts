import fs from 'node:fs';
import path from 'node:path';

/** One entry of the suite's `INDEX.json`. */
export interface CaseIndexEntry {
  /** Case file, relative to `specs/`. */
  f: string;
  /** Spec family: `oas2`, `oas3.0`, `oas3.1`, `postman`. */
  fam: string;
  /** Prism server modes the case needs: `dynamic`, `jsf`, `errors`, `proxy`, `cors-off`. */
  flags: string[];
  /** Prism-specific artefacts the expectation depends on: `prism-error-type`, `__query`, `sl-violations`, `Prefer`. */
  prismy: string[];
  /** Expected status. */
  st: string;
  kind: string;
  /** Category (folder). */
  cat: string;
}

/**
 * The selection rule for cases that can run against this gateway ("portable"):
 *
 * - OpenAPI 3.x only (`fam` oas3.0 / oas3.1): the gateway does not load Swagger 2 or Postman collections;
 * - a mock server, plain or with dynamic examples (`flags` empty or `dynamic`, run with
 *   MOCK_EXAMPLES=dynamic): no json-schema-faker options, no `--errors`, no proxy mode, CORS left on;
 * - an expectation that does not depend on Prism-specific artefacts (`prismy` empty or `Prefer`, whose
 *   semantics the gateway shares): Prism's error `type` URIs and problem bodies, its
 *   `__code`/`__example` query switches, its `sl-violations` header;
 * - a server line that is exactly `mock [-d] -p <port> ${document}` (no other Prism options).
 *
 * Everything else describes Prism itself rather than the OpenAPI behaviour both mocks share.
 */
export function isPortable(entry: CaseIndexEntry, serverLine?: string): boolean {
  if (entry.fam !== 'oas3.0' && entry.fam !== 'oas3.1') return false;
  if (entry.flags.some((flag) => flag !== 'dynamic') || entry.prismy.some((artefact) => artefact !== 'Prefer'))
    return false;
  return serverLine === undefined || /^mock(\s+-d)?\s+-p\s+\d+(\s+-d)?\s+\$\{document\}$/.test(serverLine.trim());
}

/** True when a portable case's server line asks for dynamic examples (`prism mock -d`): run with
 * MOCK_EXAMPLES=dynamic. */
export const isDynamic = (serverLine: string): boolean => /\s-d\b/.test(serverLine);

/** Reads and checks `INDEX.json` of a Prism harness folder. */
export function readCaseIndex(suiteDir: string): CaseIndexEntry[] {
  const file = path.join(suiteDir, 'INDEX.json');
  const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(entries)) throw new Error(`${file} is not a JSON array`);
  for (const entry of entries as CaseIndexEntry[]) {
    if (
      typeof entry?.f !== 'string' ||
      typeof entry.fam !== 'string' ||
      !Array.isArray(entry.flags) ||
      !Array.isArray(entry.prismy)
    ) {
      throw new Error(`${file}: unexpected entry ${JSON.stringify(entry)}`);
    }
  }
  return entries as CaseIndexEntry[];
}
