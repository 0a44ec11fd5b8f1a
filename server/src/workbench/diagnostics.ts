import type { WorkbenchDiagnostic } from '../contract/index.js';
import { isSpecFile, type Gateway, type SpecLintResult } from '../gateway/index.js';

/**
 * The workspace path of a file the gateway loaded: spec files live in `specs/`, everything else in `handlers/`;
 * `kind` says which when it is known (a file of either folder may have any name).
 */
export function gatewayFilePath(file: string, kind?: 'spec' | 'handler'): string {
  const spec = kind === undefined ? isSpecFile(file) : kind === 'spec';
  return `${spec ? 'specs' : 'handlers'}/${file}`;
}

/** `file.ts:12:5: message` (esbuild's warnings) -> position and message. */
function positionedWarning(warning: string): Pick<WorkbenchDiagnostic, 'message' | 'line' | 'column'> {
  const match = /^[^:]*:(\d+):(\d+): (.*)$/s.exec(warning);
  return match ? { line: Number(match[1]), column: Number(match[2]), message: match[3] } : { message: warning };
}

/**
 * Everything the gateway knows is wrong with the workspace as of its last reload: files that failed
 * to load (errors, with line and column when known, and when the last good version that keeps serving was
 * loaded), handlers stopped since for time or memory, routes
 * left out of the table because another file already defines them, files not loaded (a specs folder's
 * YAML that is not OpenAPI 3.x, a handler folder's file not named `*_handler.ts`), and non-fatal spec and
 * handler warnings.
 */
export function workspaceDiagnostics(gateway: Gateway): WorkbenchDiagnostic[] {
  const diagnostics: WorkbenchDiagnostic[] = [];
  for (const problem of gateway.loadProblems) {
    const lastGood = gateway.loadedUnits.find((unit) => unit.file === problem.file);
    const loadedAt = lastGood && gateway.loadedAt(lastGood);
    const kept = loadedAt === undefined ? {} : { lastGoodLoadedAt: loadedAt };
    const path = gatewayFilePath(problem.file);
    // A spec refused for its schema errors: each of them, at its place, rather than their count.
    const findings = gateway.refusedFindings(problem.file);
    if (findings) {
      for (const finding of findings)
        diagnostics.push({ path, severity: 'error', ...positionedWarning(finding), ...kept });
      continue;
    }
    const diagnostic: WorkbenchDiagnostic = { path, severity: 'error', message: problem.message };
    if (problem.line !== undefined) diagnostic.line = problem.line;
    if (problem.column !== undefined) diagnostic.column = problem.column;
    diagnostics.push({ ...diagnostic, ...kept });
  }
  for (const fault of gateway.faults.list()) {
    const where = fault.route === undefined ? '' : `${fault.route}: `;
    diagnostics.push({
      path: gatewayFilePath(fault.file),
      severity: 'error',
      message: `${where}${fault.message} (${fault.at})`,
    });
  }
  for (const { entry, reason } of gateway.table.conflicts) {
    diagnostics.push({ path: gatewayFilePath(entry.file), severity: 'warning', message: reason });
  }
  for (const { kind, file, reason } of gateway.skippedByKind) {
    diagnostics.push({ path: gatewayFilePath(file, kind), severity: 'warning', message: `not loaded: ${reason}` });
  }
  for (const unit of gateway.loadedUnits) {
    for (const warning of unit.warnings) {
      diagnostics.push({ path: gatewayFilePath(unit.file), severity: 'warning', ...positionedWarning(warning) });
    }
  }
  return diagnostics;
}

const lintSeverity = { error: 'error', warning: 'warning', info: 'info', hint: 'info' } as const;

/**
 * The lint findings of the specs as diagnostics at their place, source `lint` with the rule's name. A spec that
 * fails to load now has none: its findings are of the last good version, whose lines the file no longer has.
 */
export function lintDiagnostics(gateway: Gateway, results: readonly SpecLintResult[]): WorkbenchDiagnostic[] {
  const failing = new Set(gateway.loadProblems.map((problem) => problem.file));
  return results
    .filter((result) => !failing.has(result.file))
    .flatMap(({ file, findings, error }) => {
      const path = gatewayFilePath(file, 'spec');
      const shown: WorkbenchDiagnostic[] = findings.map(({ line, column, severity, rule, message }) => {
        return { path, severity: lintSeverity[severity], message, line, column, source: 'lint', rule };
      });
      if (error) shown.push({ path, severity: 'warning', message: `cannot lint: ${error}`, source: 'lint' });
      return shown;
    });
}
