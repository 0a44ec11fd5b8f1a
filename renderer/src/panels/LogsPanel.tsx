import { useEffect, useMemo, useRef, useState } from 'react';
import type { WorkbenchLogLine } from '../../../server/src/contract/index.js';
import { useServerState, useWorkbench } from '../app/workbench-context.js';
import { usePersistedState } from '../state/persisted.js';

const levels: WorkbenchLogLine['level'][] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

function time(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour12: false }) + `.${String(ms % 1000).padStart(3, '0')}`;
}

/** The server's log, live: a minimum level, a search over message and fields, follow mode. */
export function LogsPanel() {
  const { events } = useWorkbench();
  const { logs } = useServerState();
  const [filter, setFilter] = usePersistedState('logs-filter', {
    level: 'debug' as WorkbenchLogLine['level'],
    search: '',
  });
  const [follow, setFollow] = useState(true);
  const end = useRef<HTMLDivElement>(null);

  const shown = useMemo(() => {
    const min = levels.indexOf(filter.level);
    const needle = filter.search.trim().toLowerCase();
    return logs.filter((line) => {
      if (levels.indexOf(line.level) < min) return false;
      if (!needle) return true;
      return (
        line.msg.toLowerCase().includes(needle) ||
        (line.fields !== undefined && JSON.stringify(line.fields).toLowerCase().includes(needle))
      );
    });
  }, [logs, filter]);

  useEffect(() => {
    if (follow) end.current?.scrollIntoView({ block: 'end' });
  }, [shown, follow]);

  return (
    <div className="panel-column">
      <div className="toolbar">
        <label>
          Level{' '}
          <select
            aria-label="Minimum level"
            value={filter.level}
            onChange={(e) => setFilter({ ...filter, level: e.target.value as WorkbenchLogLine['level'] })}
          >
            {levels.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </select>
        </label>
        <input
          type="search"
          placeholder="Search logs"
          aria-label="Search logs"
          value={filter.search}
          onChange={(e) => setFilter({ ...filter, search: e.target.value })}
        />
        <label>
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
        </label>
        <span className="spacer" />
        <span className="muted">
          {shown.length} of {logs.length}
        </span>
        <button type="button" onClick={() => events.clearLogs()}>
          Clear
        </button>
      </div>
      <div className="panel-scroll logs" role="log" aria-label="Server log">
        {shown.map((line, i) => (
          <div key={`${line.time}:${i}`} className={`log-line ${line.level}`}>
            <span className="log-time">{time(line.time)}</span>
            <span className={`log-level ${line.level}`}>{line.level.toUpperCase()}</span>
            <span className="log-msg">
              {line.msg}
              {line.fields && <span className="log-fields"> {JSON.stringify(line.fields)}</span>}
            </span>
          </div>
        ))}
        <div ref={end} />
      </div>
    </div>
  );
}
