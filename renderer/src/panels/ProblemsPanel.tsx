import { useWorkbench } from '../platform/workbench-context.js';
import { useProblems } from './problems.js';
import './panels.css';

/** The server's diagnostics (load errors, warnings, lint findings) and the editor's own markers, by file. */
export function ProblemsPanel() {
  const { openFile } = useWorkbench();
  const problems = useProblems();

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
                <span className={`dot ${p.severity}`} role="img" aria-label={p.severity} />
              </td>
              <td className="message">{p.message}</td>
              <td className="location">
                {p.path}
                {p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ''}
              </td>
              <td className="source">{p.rule ? `${p.source}(${p.rule})` : p.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
