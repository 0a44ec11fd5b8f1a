import { useMemo, useSyncExternalStore } from 'react';
import { useServerState, useWorkbench } from '../app/workbench-context.js';
import { editorMarkers } from '../editor/markers-store.js';

interface Problem {
  path: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  line?: number;
  column?: number;
  source: string;
}

const severityOrder = { error: 0, warning: 1, info: 2 };

/** The server's diagnostics (load errors, warnings) and the editor's own markers, by file. */
export function ProblemsPanel() {
  const { openFile } = useWorkbench();
  const { diagnostics } = useServerState();
  const markers = useSyncExternalStore(editorMarkers.subscribe, editorMarkers.snapshot);
  const problems = useMemo<Problem[]>(() => {
    const list: Problem[] = [...diagnostics.map((d) => ({ ...d, source: 'server' })), ...Object.values(markers).flat()];
    return list.sort(
      (a, b) =>
        a.path.localeCompare(b.path) ||
        severityOrder[a.severity] - severityOrder[b.severity] ||
        (a.line ?? 0) - (b.line ?? 0),
    );
  }, [diagnostics, markers]);

  if (problems.length === 0) return <div className="placeholder">No problems in the workspace.</div>;
  return (
    <div className="panel-scroll">
      <table className="grid problems" aria-label="Problems">
        <tbody>
          {problems.map((p, i) => (
            <tr
              key={`${p.path}:${p.line}:${p.column}:${p.source}:${i}`}
              className={`problem ${p.severity}`}
              tabIndex={0}
              onClick={() => openFile(p.path, { line: p.line ?? 1, column: p.column ?? 1 })}
              onKeyDown={(e) => e.key === 'Enter' && openFile(p.path, { line: p.line ?? 1, column: p.column ?? 1 })}
            >
              <td className="severity" title={p.severity}>
                <span className={`dot ${p.severity}`} aria-label={p.severity} />
              </td>
              <td className="message">{p.message}</td>
              <td className="location">
                {p.path}
                {p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ''}
              </td>
              <td className="source">{p.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
