import { displayKeys } from '../../platform/shortcuts.js';
import { useTabs } from '../../platform/workbench-context.js';
import { useQueryCommands } from './query-commands.js';
import { newQueryActions, savedQueryFolder } from './query-tabs.js';
import { useQueryTabs } from './query-tabs-context.js';
import './query-tabs.css';

const kindNames = { sql: 'SQL', sparql: 'SPARQL', nl: 'question' } as const;

/**
 * The Query panel: queries are written in tabs of the editor area, where they have the room a result
 * needs; this panel opens them and lists the open ones.
 */
export default function QueryLauncher() {
  const { newQuery } = useQueryCommands();
  const { tabs } = useQueryTabs();
  const { open } = useTabs();
  const openQueries = open.filter((id) => tabs[id]);
  return (
    <div className="query-launcher">
      <div className="toolbar">
        {newQueryActions.map(({ kind, text, keys }) => (
          <button key={kind} type="button" title={`${text} (${displayKeys(keys)})`} onClick={() => newQuery(kind)}>
            {text}
          </button>
        ))}
      </div>
      <p className="muted">
        Queries open as tabs beside the files: several at once, each with its own text, kind and results, kept across
        reloads. Saved queries are the <code>.sql</code> and <code>.rq</code> files of <code>{savedQueryFolder}/</code>:
        open them from the explorer.
      </p>
      {openQueries.length > 0 && (
        <p className="muted">
          Open: {openQueries.map((id) => `${tabs[id].title} (${kindNames[tabs[id].kind]})`).join(', ')}
        </p>
      )}
    </div>
  );
}
