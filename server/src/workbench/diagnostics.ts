import type { WorkbenchDiagnostic } from '../contract/index.js';
import { isSpecFile, type Gateway } from '../gateway/index.js';

/** The workspace path of a file the gateway loaded: spec files live in `specs/`, everything else in `handlers/`. */
export function gatewayFilePath(file: string): string {
  return `${isSpecFile(file) ? 'specs' : 'handlers'}/${file}`;
}

/** `file.ts:12:5: message` (esbuild's warnings) -> position and message. */
function positionedWarning(warning: string): Pick<WorkbenchDiagnostic, 'message' | 'line' | 'column'> {
  const match = /^[^:]*:(\d+):(\d+): (.*)$/s.exec(warning);
  return match ? { line: Number(match[1]), column: Number(match[2]), message: match[3] } : { message: warning };
}

/**
 * Everything the gateway knows is wrong with the workspace as of its last reload: files that failed
 * to load (errors, with line and column when known), handlers stopped since for time or memory, routes
 * left out of the table because another file already defines them, files of the specs folder skipped
 * as not OpenAPI 3.x, and non-fatal spec and handler warnings.
 */
export function workspaceDiagnostics(gateway: Gateway): WorkbenchDiagnostic[] {
  const diagnostics: WorkbenchDiagnostic[] = [];
  for (const problem of gateway.loadProblems) {
    const diagnostic: WorkbenchDiagnostic = {
      path: gatewayFilePath(problem.file),
      severity: 'error',
      message: problem.message,
    };
    if (problem.line !== undefined) diagnostic.line = problem.line;
    if (problem.column !== undefined) diagnostic.column = problem.column;
    diagnostics.push(diagnostic);
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
  for (const { file, reason } of gateway.skippedFiles) {
    diagnostics.push({ path: gatewayFilePath(file), severity: 'warning', message: `skipped: ${reason}` });
  }
  for (const unit of gateway.loadedUnits) {
    for (const warning of unit.warnings) {
      diagnostics.push({ path: gatewayFilePath(unit.file), severity: 'warning', ...positionedWarning(warning) });
    }
  }
  return diagnostics;
}
