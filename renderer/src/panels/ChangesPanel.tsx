import type { SpecChangesReport } from '../../../server/src/contract/index.js';
import { useServerState, useWorkbench } from '../platform/workbench-context.js';
import { timeOfDay } from '../base/clock.js';
import './panels.css';

/** `2 breaking changes since the last version`, or the count of the others when none breaks. */
export function changesSummary(report: SpecChangesReport): string {
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
  const others = report.changes.length - report.breaking;
  if (report.breaking === 0) return `${plural(others, 'non-breaking change')} since the last version`;
  const rest = others ? `, ${others} non-breaking` : '';
  return `${plural(report.breaking, 'breaking change')} since the last version${rest}`;
}

/** The breaking changes of the latest save of every spec, for the panel's badge and the status bar. */
export function countBreaking(reports: readonly SpecChangesReport[]): number {
  return reports.reduce((sum, r) => sum + r.breaking, 0);
}

/**
 * What each save of a spec changed since its last good version, the latest save first and open: every change
 * with its verdict, kind, where (operation, response, field) and why. A row opens the spec.
 */
export function ChangesPanel() {
  const { openFile } = useWorkbench();
  const reports = useServerState((s) => s.specChanges);
  if (reports.length === 0)
    return <div className="placeholder">No changes yet: each save of a spec is compared with its last version.</div>;
  return (
    <div className="panel-scroll spec-changes" aria-label="Spec changes">
      {reports.map((report, i) => (
        <details key={`${report.path}:${report.time}`} open={i === 0}>
          <summary className={report.breaking ? 'breaking' : undefined}>
            {changesSummary(report)} · {report.path} · {timeOfDay(report.time)}
          </summary>
          <table className="grid problems">
            <tbody>
              {report.changes.map((c, j) => (
                <tr
                  key={j}
                  className={`problem ${c.verdict === 'breaking' ? 'error' : 'info'}`}
                  tabIndex={0}
                  title={c.pointer}
                  onClick={() => openFile(report.path)}
                  onKeyDown={(e) => e.key === 'Enter' && openFile(report.path)}
                >
                  <td className="verdict">{c.verdict}</td>
                  <td className="source">{c.kind}</td>
                  <td className="location">{c.where}</td>
                  <td className="message">{c.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </div>
  );
}
