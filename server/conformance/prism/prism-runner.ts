import fs from 'node:fs';
import path from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { createTempWorkspace } from '../temp-workspace.js';
import { startWorkspaceServer } from '../workspace-server.js';
import { parseCaseFile, type PrismCase } from './case-file.js';
import { parseCurlCommand } from './curl-command.js';
import { likelyCause } from './divergence.js';
import { normalizeBody, parseHttpResponse, type HttpResponse } from './http-response.js';
import { isDynamic, isPortable, readCaseIndex, type CaseIndexEntry } from './portable-cases.js';
import { compareResponse } from './response-match.js';

/** The outcome of one case. */
export interface CaseOutcome {
  file: string;
  category: string;
  passed: boolean;
  /** What differs (empty when passed). */
  problems: string[];
  /** The likely cause of the difference, when a rule recognises it. */
  cause?: string;
}

/** The outcome of a run over the portable cases. */
export interface PrismReport {
  total: number;
  portable: number;
  passed: number;
  outcomes: CaseOutcome[];
}

/** `content-negotiation/E2E-AC-1.oas3.txt` -> `content-negotiation--E2E-AC-1.oas3`: a mount and file name. */
export function caseSlug(file: string): string {
  return file
    .replace(/\.txt$/, '')
    .replace(/[\\/]+/g, '--')
    .replace(/[^A-Za-z0-9._~-]/g, '_');
}

/**
 * The case's spec with `servers` replaced by the gateway mount `/api/adaptive/<mount>`, so the
 * case's paths are served under that prefix. Edits the YAML document in place (comments, anchors and
 * key order stay); a text that is not a YAML mapping is returned unchanged for the loader to report.
 */
export function mountSpec(specText: string, mount: string): { text: string; value: unknown } {
  const document = parseDocument(specText, { uniqueKeys: false });
  if (document.errors.length > 0 || !isMap(document.contents)) return { text: specText, value: undefined };
  document.set('servers', document.createNode([{ url: `/api/adaptive/${mount}` }]));
  return { text: document.toString({ lineWidth: 0 }), value: document.toJS() };
}

function flatHeaders(headers: Record<string, unknown>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}

/** Runs one case against a fresh gateway on a temporary workspace. */
async function runCase(entry: CaseIndexEntry, prismCase: PrismCase): Promise<CaseOutcome> {
  const slug = caseSlug(entry.f);
  const workspace = createTempWorkspace('prism-case');
  const outcome = (problems: string[], cause?: string): CaseOutcome => ({
    file: entry.f,
    category: entry.cat,
    passed: problems.length === 0,
    problems,
    cause,
  });
  try {
    const mounted = mountSpec(prismCase.spec, slug);
    fs.writeFileSync(path.join(workspace.specsDir, `${slug}.openapi.yaml`), mounted.text);
    const request = parseCurlCommand(prismCase.command);
    const expected = parseHttpResponse(prismCase.expect);
    // Prism checks the spec's security by default; the gateway's mock does when told to.
    const server = await startWorkspaceServer(workspace.dir, {
      MOCK_SECURITY: 'enforce',
      ...(isDynamic(prismCase.server) ? { MOCK_EXAMPLES: 'dynamic' } : {}),
    });
    try {
      if (server.firstLoad.errors.length > 0) {
        return outcome([`spec not loaded: ${server.firstLoad.errors.map((e) => e.message).join('; ')}`]);
      }
      const response = await server.app.inject({
        method: request.method as 'GET',
        url: `/api/adaptive/${slug}${request.pathAndQuery}`,
        headers: request.headers,
        payload: request.body,
      });
      const actual: HttpResponse = {
        status: response.statusCode,
        headers: flatHeaders(response.headers),
        body: request.headersOnly || request.method === 'HEAD' ? '' : normalizeBody(response.payload),
      };
      const problems = compareResponse(expected, actual, prismCase.expectKind);
      if (problems.length === 0) return outcome([]);
      const errors = server.logs.filter((line) => /"level":(50|60)/.test(line));
      if (errors.length > 0) problems.push(`server logged: ${errors[0].slice(0, 300)}`);
      return outcome(
        problems,
        likelyCause({
          spec: mounted.value,
          method: request.method,
          requestHeaders: request.headers,
          requestHasBody: request.body !== undefined,
          expected,
          actual,
        }),
      );
    } finally {
      await server.close();
    }
  } finally {
    workspace.remove();
  }
}

/**
 * Runs the portable cases of a Prism test-harness folder (`INDEX.json` + `specs/`) against the
 * gateway: each case's spec is deployed as a workspace spec, its curl command sent through
 * `inject()`, the response compared as Prism's harness compares it. `only` filters case files by
 * substring. A case that cannot be run is a failure with its reason, never a crash of the run.
 */
export async function runPrismSuite(
  suiteDir: string,
  options: { only?: string; onOutcome?: (outcome: CaseOutcome) => void } = {},
): Promise<PrismReport> {
  const index = readCaseIndex(suiteDir);
  const outcomes: CaseOutcome[] = [];
  let portable = 0;
  for (const entry of index) {
    if (!isPortable(entry)) continue;
    if (options.only && !entry.f.includes(options.only)) continue;
    const failure = (error: unknown): CaseOutcome => ({
      file: entry.f,
      category: entry.cat,
      passed: false,
      problems: [`cannot run the case: ${(error as Error).message}`],
    });
    let outcome: CaseOutcome;
    try {
      const prismCase = parseCaseFile(fs.readFileSync(path.join(suiteDir, 'specs', entry.f), 'utf8'));
      if (!isPortable(entry, prismCase.server)) continue;
      portable++;
      try {
        outcome = await runCase(entry, prismCase);
      } catch (error) {
        outcome = failure(error);
      }
    } catch (error) {
      portable++;
      outcome = failure(error);
    }
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  return { total: index.length, portable, passed: outcomes.filter((o) => o.passed).length, outcomes };
}
