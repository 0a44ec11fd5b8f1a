import type { QuerySource } from '../../../server/src/contract/index.js';
import type { Catalog } from '../editor/languages/completion.js';
import type { HistoryEntry } from './history.js';
import { JobsList, type TrackedJob } from './JobsList.js';
import type { QueryMode } from './query-runs.js';
import { SourcesTree } from './SourcesTree.js';
import type { TableReference } from './sql-references.js';
import { timeOfDay } from '../base/clock.js';

/** The tabs of the console's sidebar. */
export type SidebarTab = 'sources' | 'history' | 'jobs';

const tabs: { id: SidebarTab; title: string }[] = [
  { id: 'sources', title: 'Sources' },
  { id: 'history', title: 'History' },
  { id: 'jobs', title: 'Jobs' },
];

/** What was run, newest first: a click puts a query back in its editor. */
function HistoryList({ history, onOpen }: { history: HistoryEntry[]; onOpen(kind: QueryMode, query: string): void }) {
  return (
    <ul className="query-history" aria-label="Query history">
      {history.length === 0 && <li className="placeholder">Nothing run yet.</li>}
      {history.map((h) => (
        <li key={`${h.kind}:${h.at}`}>
          <button type="button" title="Put this query in the editor" onClick={() => onOpen(h.kind, h.query)}>
            <span className={`dot ${h.ok ? 'ok' : 'error'}`} />
            <span className="history-query">{h.query}</span>
            <span className="muted">
              {h.kind.toUpperCase()} · {timeOfDay(h.at)}
              {h.rowCount !== undefined && ` · ${h.rowCount} rows`}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export interface QuerySidebarProps {
  tab: SidebarTab;
  onTab(tab: SidebarTab): void;
  sources: QuerySource[];
  sourcesError?: string;
  catalog: Catalog;
  onRefreshSources(): void;
  onLearn(tables: TableReference[]): Promise<string | undefined>;
  /** Puts a name into the editor. */
  onInsert(text: string): void;
  history: HistoryEntry[];
  onOpenQuery(kind: QueryMode, query: string): void;
  jobs: TrackedJob[];
  onJobsChange(update: (jobs: TrackedJob[]) => TrackedJob[]): void;
  onOpenJob(job: TrackedJob): void;
}

/** The console's sidebar: the sources with their tables, the history, and the async jobs. */
export function QuerySidebar(props: QuerySidebarProps) {
  const { tab, jobs } = props;
  return (
    <aside className="query-side">
      <div className="panel-tabs" role="tablist" aria-label="Query sidebar">
        {tabs.map(({ id, title }) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className={`panel-tab${tab === id ? ' active' : ''}`}
            onClick={() => props.onTab(id)}
          >
            {title}
            {id === 'jobs' && jobs.length > 0 && <span className="badge">{jobs.length}</span>}
          </button>
        ))}
      </div>
      <div className="panel-scroll">
        {tab === 'sources' && (
          <SourcesTree
            sources={props.sources}
            error={props.sourcesError}
            catalog={props.catalog}
            onRefresh={props.onRefreshSources}
            onLearn={props.onLearn}
            onInsert={props.onInsert}
          />
        )}
        {tab === 'history' && <HistoryList history={props.history} onOpen={props.onOpenQuery} />}
        {tab === 'jobs' && <JobsList jobs={jobs} onChange={props.onJobsChange} onOpen={props.onOpenJob} />}
      </div>
    </aside>
  );
}
