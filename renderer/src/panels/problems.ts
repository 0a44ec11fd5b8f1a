import { useMemo, useSyncExternalStore } from 'react';
import type { WorkbenchDiagnostic } from '../../../server/src/contract/index.js';
import { useServerState } from '../platform/workbench-context.js';
import { editorMarkers, type EditorMarker } from '../editor/markers-store.js';

/** One entry of the problems panel: a diagnostic of the server or a marker of the editor. */
export interface Problem {
  path: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  line?: number;
  column?: number;
  /** `server` (load errors, warnings), `lint` (Spectral), or the editor's own checker. */
  source: string;
  /** The lint rule that found it. */
  rule?: string;
}

const severityOrder = { error: 0, warning: 1, info: 2 };

/**
 * A message in the words both sides use: the server words a YAML fault `invalid YAML: <the yaml package's
 * message> at line 12, column 1:`, the editor's YAML check gives the yaml package's message alone.
 */
function sameWords(message: string): string {
  return message
    .trim()
    .replace(/^invalid YAML: /, '')
    .replace(/ at line \d+, column \d+:?$/, '')
    .toLowerCase();
}

/**
 * The server's diagnostics and the editor's markers as one list, by file, severity and line; an entry
 * both report in the same words at the same place is listed once, in the editor's words (they follow the text),
 * naming both sources.
 */
export function mergeProblems(diagnostics: WorkbenchDiagnostic[], markers: EditorMarker[]): Problem[] {
  const byKey = new Map<string, Problem>();
  for (const problem of [...markers, ...diagnostics.map((d) => ({ ...d, source: d.source ?? 'server' }))]) {
    const key = [problem.path, problem.severity, problem.line ?? '', sameWords(problem.message)].join('\u0000');
    const known = byKey.get(key);
    if (!known) byKey.set(key, { ...problem });
    // Listed once, naming every side that reports it.
    else if (!known.source.split(', ').includes(problem.source)) known.source += `, ${problem.source}`;
  }
  return [...byKey.values()].sort(
    (a, b) =>
      a.path.localeCompare(b.path) ||
      severityOrder[a.severity] - severityOrder[b.severity] ||
      (a.line ?? 0) - (b.line ?? 0),
  );
}

/** Errors and warnings (info included) among `problems`: what the status bar and the panel's badge show. */
export function countProblems(problems: Problem[]): { errors: number; warnings: number } {
  const errors = problems.filter((p) => p.severity === 'error').length;
  return { errors, warnings: problems.length - errors };
}

/** `1 error, 2 warnings`: the counts of {@link countProblems} in words. */
export function problemsSummary({ errors, warnings }: { errors: number; warnings: number }): string {
  return `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`;
}

/** Everything the problems panel lists, live: one source for the panel, its badge and the status bar. */
export function useProblems(): Problem[] {
  const diagnostics = useServerState((s) => s.diagnostics);
  const markers = useSyncExternalStore(editorMarkers.subscribe, editorMarkers.snapshot);
  return useMemo(() => mergeProblems(diagnostics, Object.values(markers).flat()), [diagnostics, markers]);
}
