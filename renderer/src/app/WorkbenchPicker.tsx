import { useEffect, useMemo, useState } from 'react';
import type { WorkspaceEntry, WorkspaceSearchMatch } from '../../../server/src/contract/index.js';
import { fuzzyMatch } from '../platform/fuzzy.js';
import { Picker, type PickerItem } from '../platform/Picker.js';
import { displayShortcut } from '../platform/shortcuts.js';
import { useWorkbench } from '../platform/workbench-context.js';
import { parentOf } from '../state/paths.js';
import { actions } from './actions.js';

/** Which picker is open: quick-open, the command palette, or the search across files. */
export type PickerKind = 'files' | 'commands' | 'search';

export interface WorkbenchPickerProps {
  kind: PickerKind;
  entries: WorkspaceEntry[];
  /** The shell's actions by id, the same the shortcuts run. */
  handlers: Record<string, () => void>;
  onClose(): void;
}

/** The files of the tree, depth first. */
function filesOf(entries: WorkspaceEntry[]): string[] {
  return entries.flatMap((entry) => (entry.type === 'directory' ? filesOf(entry.children ?? []) : [entry.path]));
}

/** The picker of `kind` over the workbench. */
export function WorkbenchPicker(props: WorkbenchPickerProps) {
  const [query, setQuery] = useState('');
  const { openFile } = useWorkbench();
  const files = useMemo(() => filesOf(props.entries), [props.entries]);
  const search = useFileSearch(props.kind === 'search' ? query : '');

  const common = { onQuery: setQuery, onClose: props.onClose };
  if (props.kind === 'files') {
    const items: PickerItem[] = fuzzyMatch(query, files, (path) => path).map(({ value, marked }) => ({
      id: value,
      label: marked,
    }));
    return (
      <Picker
        {...common}
        label="Go to file"
        placeholder="File name (letters in order, e.g. libapi)"
        items={items}
        empty="No file matches"
        onPick={(item) => openFile(item.id, { line: 1, column: 1 })}
      />
    );
  }
  if (props.kind === 'commands') {
    const commands = actions.filter((action) => action.id !== 'commandPalette' && props.handlers[action.id]);
    const items = fuzzyMatch(query, commands, (action) => action.description).map(({ value, marked }) => ({
      id: value.id,
      label: marked,
      hint: displayShortcut(value),
    }));
    return (
      <Picker
        {...common}
        label="Command palette"
        placeholder="Command"
        items={items}
        empty="No command matches"
        onPick={(item) => props.handlers[item.id]()}
      />
    );
  }
  return (
    <Picker
      {...common}
      label="Search in files"
      placeholder="Text to find in specs, handlers, query and health.yaml"
      items={search.matches.map(searchItem)}
      empty={search.message}
      note={search.note}
      onPick={(item) => {
        const [path, line, column] = JSON.parse(item.id) as [string, number, number];
        openFile(path, { line, column });
      }}
    />
  );
}

/** A search match as a picker row: the line's text, then where it is. */
function searchItem(match: WorkspaceSearchMatch): PickerItem {
  return {
    id: JSON.stringify([match.path, match.line, match.column]),
    label: match.text.trim(),
    detail: `${match.path.slice(parentOf(match.path).length + 1)}:${match.line} ${parentOf(match.path)}`,
  };
}

/** How long typing pauses before the search runs: one request per word typed, not per letter. */
const searchPause = 150;

/** What the search shows: its matches, and a note when there are none or more than it shows. */
interface SearchState {
  query: string;
  matches: WorkspaceSearchMatch[];
  /** Said when there is no match: why (searching, nothing found, the server's refusal). */
  message: string;
  /** Said under the matches when the server cut the list. */
  note?: string;
}

/** The server's search for `query` (after a pause in typing); an answer to an older query is dropped. */
function useFileSearch(query: string): SearchState {
  const { api } = useWorkbench();
  const [state, setState] = useState<SearchState>({ query: '', matches: [], message: '' });
  useEffect(() => {
    if (!query) return;
    let current = true;
    const timer = setTimeout(() => {
      api.search(query).then(
        ({ matches, truncated }) => {
          const note = truncated ? `The first ${matches.length} matching lines` : undefined;
          if (current) setState({ query, matches, message: 'No line contains it', note });
        },
        (error: Error) => current && setState({ query, matches: [], message: error.message }),
      );
    }, searchPause);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, query]);
  if (!query) return { query, matches: [], message: 'Type to search' };
  return state.query === query ? state : { ...state, message: 'Searching…' };
}
