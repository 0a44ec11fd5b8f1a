import path from 'node:path';
import type { WorkbenchDiagnostic } from '../contract/index.js';
import type { ConfigFileError } from '../core/config-file.js';
import type { GraphFiles } from './query-workspace.js';
import type { AsyncSettings } from './sources.js';

/** A Turtle file of the query folder that did not load, and whether an earlier version of it still serves. */
export interface GraphFault {
  fault: ConfigFileError;
  lastGoodKept: boolean;
}

const graphFileKeys = ['ontology', 'mapping'] as const;

/**
 * The knowledge graph a reload serves: each Turtle file as `read`, or, when it did not load, its version in
 * `running` if that one did (a file that breaks keeps its last good version, like health.yaml). With the
 * faults of `read`, for {@link graphFaultProblems}.
 */
export function mergeGraph(read: GraphFiles, running: GraphFiles): { graph: GraphFiles; faults: GraphFault[] } {
  const graph: GraphFiles = { ...read };
  const faults: GraphFault[] = [];
  for (const key of graphFileKeys) {
    const file = read[key];
    if (file.ok) continue;
    const lastGoodKept = running[key].ok;
    if (lastGoodKept) Object.assign(graph, { [key]: running[key] });
    faults.push({ fault: file.fault, lastGoodKept });
  }
  return { graph, faults };
}

/** An error diagnostic at its line for each Turtle file that did not load, saying what serves meanwhile. */
export function graphFaultProblems(
  faults: readonly GraphFault[],
  workspacePath: (file: string) => string,
): WorkbenchDiagnostic[] {
  return faults.map(({ fault, lastGoodKept }) => ({
    path: workspacePath(fault.file),
    severity: 'error' as const,
    message: `${fault.detail} (${
      lastGoodKept
        ? `the last good ${path.basename(fault.file)} is still in use`
        : 'SPARQL is unavailable until it loads'
    })`,
    line: fault.line,
    column: fault.column,
  }));
}

/** The sources.yaml key of each async setting. */
const asyncKeys: Record<keyof AsyncSettings, string> = {
  workers: 'workers',
  maxQueued: 'max_queued',
  retentionMs: 'retention_hours',
  maxRows: 'max_rows',
  timeoutMs: 'timeout_ms',
  maxResultBytes: 'max_result_size',
  maxStoredBytes: 'max_stored_size',
};

/**
 * The `async` keys of sources.yaml (`async.workers`) whose value now differs from the one the job pool
 * started with: the pool is built once, so they apply only after a restart. Compared as read (defaults
 * filled in), so writing out a default is no change.
 */
export function startOnlyAsyncKeys(atStart: AsyncSettings, now: AsyncSettings): string[] {
  const changed = Object.keys(asyncKeys).filter(
    (key) => atStart[key as keyof AsyncSettings] !== now[key as keyof AsyncSettings],
  );
  return changed.map((key) => `async.${asyncKeys[key as keyof AsyncSettings]}`);
}

/** The warning that `keys` of the file at `workspacePath` need a restart; none when `keys` is empty. */
export function restartProblem(workspacePath: string, keys: readonly string[]): WorkbenchDiagnostic[] {
  if (keys.length === 0) return [];
  const message =
    `${keys.join(', ')} changed since the server started: the async job pool reads ` +
    `${keys.length === 1 ? 'it' : 'them'} only at start; restart the server to apply ` +
    `${keys.length === 1 ? 'it' : 'them'} (everything else in the query folder is live)`;
  return [{ path: workspacePath, severity: 'warning', message }];
}
