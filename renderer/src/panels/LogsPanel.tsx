import { useEffect, useMemo, useRef, useState, type Ref } from 'react';
import type { WorkbenchLogLine } from '../../../server/src/contract/index.js';
import { useServerState, useSessionState, useWorkbench } from '../platform/workbench-context.js';
import { revealLogKey, type LogReveal } from '../requests/log-reveal.js';
import { StackTrace } from '../requests/StackTrace.js';
import { timeOfDay } from '../base/clock.js';
import '../requests/requests.css';
import { usePersistedState } from '../state/persisted.js';
import './panels.css';

const levels: WorkbenchLogLine['level'][] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

function time(ms: number): string {
  return timeOfDay(ms) + `.${String(ms % 1000).padStart(3, '0')}`;
}

/** Whether `line` passes the level and the search (over its message, fields and error). */
export function matches(line: WorkbenchLogLine, min: number, needle: string): boolean {
  if (levels.indexOf(line.level) < min) return false;
  if (!needle) return true;
  return (
    line.msg.toLowerCase().includes(needle) ||
    (line.fields !== undefined && JSON.stringify(line.fields).toLowerCase().includes(needle)) ||
    (line.error !== undefined && line.error.message.toLowerCase().includes(needle))
  );
}

/** What the logs panel shows: lines from a minimum level, matching a search. */
interface LogFilter {
  level: WorkbenchLogLine['level'];
  search: string;
}

function LogFilters({ filter, onChange }: { filter: LogFilter; onChange(filter: LogFilter): void }) {
  const setFilter = onChange;
  return (
    <>
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
    </>
  );
}

interface LogLineProps {
  line: WorkbenchLogLine;
  revealed: boolean;
  ref?: Ref<HTMLDivElement>;
}

/** One log line: time, level, message, fields, and an error's stack. */
function LogLine({ line, revealed, ref }: LogLineProps) {
  return (
    <div ref={ref} className={`log-line ${line.level}${revealed ? ' revealed' : ''}`} data-log-id={line.id}>
      <span className="log-time">{time(line.time)}</span>
      <span className={`log-level ${line.level}`}>{line.level.toUpperCase()}</span>
      <span className="log-msg">
        {line.msg}
        {line.fields && <span className="log-fields"> {JSON.stringify(line.fields)}</span>}
        {line.error && <StackTrace error={line.error} />}
      </span>
    </div>
  );
}

/**
 * The server's log, live: a minimum level, a search over message and fields, follow mode. A line a
 * request's link asks for (a 5xx's error) is scrolled to and highlighted, shown whatever the filters,
 * and follow mode stops so that it stays in view. Errors show their stack as frames.
 */
export function LogsPanel() {
  const { events } = useWorkbench();
  const logs = useServerState((s) => s.logs);
  const [filter, setFilter] = usePersistedState<LogFilter>('logs-filter', { level: 'debug', search: '' });
  const [reveal] = useSessionState<LogReveal | undefined>(revealLogKey, undefined);
  // Following stops when a line is asked for (a new nonce), until the box is ticked again.
  const [followed, setFollowed] = useState({ on: reveal === undefined, nonce: reveal?.nonce });
  const follow = followed.on && followed.nonce === reveal?.nonce;
  const end = useRef<HTMLDivElement>(null);
  const revealed = useRef<HTMLDivElement>(null);

  const shown = useMemo(() => {
    const min = levels.indexOf(filter.level);
    const needle = filter.search.trim().toLowerCase();
    return logs.filter((line) => line.id === reveal?.id || matches(line, min, needle));
  }, [logs, filter, reveal]);

  useEffect(() => {
    if (reveal !== undefined) revealed.current?.scrollIntoView({ block: 'center' });
  }, [reveal]);

  useEffect(() => {
    if (follow) end.current?.scrollIntoView({ block: 'end' });
  }, [shown, follow]);

  const kept = reveal === undefined || logs.some((line) => line.id === reveal.id);

  return (
    <div className="panel-column">
      <div className="toolbar">
        <LogFilters filter={filter} onChange={setFilter} />
        <label>
          <input
            type="checkbox"
            checked={follow}
            onChange={(e) => setFollowed({ on: e.target.checked, nonce: reveal?.nonce })}
          />{' '}
          Follow
        </label>
        <span className="spacer" />
        <span className="muted">
          {shown.length} of {logs.length}
        </span>
        <button type="button" onClick={() => events.clearLogs()}>
          Clear
        </button>
      </div>
      {!kept && (
        <div className="banner error">The log entry asked for is no longer kept (the panel keeps the last 2000).</div>
      )}
      {/* Focusable: a scrolled region the keyboard can scroll (axe: scrollable-region-focusable). */}
      <div className="panel-scroll logs" role="log" aria-label="Server log" tabIndex={0}>
        {shown.map((line, i) => {
          const isRevealed = line.id !== undefined && line.id === reveal?.id;
          return (
            <LogLine
              key={line.id ?? `${line.time}:${i}`}
              line={line}
              ref={isRevealed ? revealed : undefined}
              revealed={isRevealed}
            />
          );
        })}
        <div ref={end} />
      </div>
    </div>
  );
}
