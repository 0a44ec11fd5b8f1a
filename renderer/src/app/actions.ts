import { panelRegistry } from '../panels/registry.js';
import { newQueryActions } from '../query/tabs/query-tabs.js';
import type { Shortcut } from '../platform/shortcuts.js';

/**
 * Everything the shell does from the keyboard, with its keys: the shortcuts, the help that lists them
 * and the title bar's buttons (which run the same actions and show the same keys) read this one table.
 */
export const actions: Shortcut[] = [
  { id: 'save', keys: 'Mod+KeyS', description: 'Save the active file' },
  { id: 'saveAll', keys: 'Mod+Shift+KeyS', description: 'Save all files' },
  { id: 'newFile', keys: 'Alt+KeyN', description: 'New file in the selected folder' },
  { id: 'closeTab', keys: 'Alt+KeyW', description: 'Close the active tab' },
  { id: 'nextTab', keys: 'Alt+PageDown', description: 'Next tab' },
  { id: 'previousTab', keys: 'Alt+PageUp', description: 'Previous tab' },
  ...newQueryActions.map(({ action, keys, text }) => ({ id: action, keys, description: `${text} (a tab)` })),
  { id: 'toggleWrap', keys: 'Alt+KeyZ', description: 'Toggle word wrap of the query editor' },
  { id: 'toggleExplorer', keys: 'Mod+KeyB', description: 'Show or hide the explorer' },
  { id: 'toggleBottom', keys: 'Mod+KeyJ', description: 'Show or hide the bottom panels' },
  { id: 'toggleSide', keys: 'Mod+Alt+KeyB', description: 'Show or hide the side panel' },
  ...panelRegistry.map((panel, i) => ({
    id: `panel:${panel.id}`,
    keys: `Alt+Digit${i + 1}`,
    description: `Show ${panel.title}`,
  })),
  { id: 'quickOpen', keys: 'Mod+KeyP', description: 'Go to a file of the workspace (quick-open)' },
  { id: 'commandPalette', keys: 'Mod+Shift+KeyP', alsoKeys: ['F1'], description: 'Show all commands' },
  { id: 'searchFiles', keys: 'Mod+Shift+KeyF', description: 'Search across the workspace files' },
  { id: 'help', keys: 'Alt+KeyH', description: 'Show these shortcuts' },
];

/** Keys that only the explorer handles (while it has the focus), listed in the help too. */
export const explorerKeys = [
  { keys: 'F2', description: 'Rename the selected file (explorer)' },
  { keys: 'Delete', description: 'Delete the selected file (explorer)' },
];

/** The keys of an action of the table. */
export function keysOf(id: string): string {
  const action = actions.find((a) => a.id === id);
  if (!action) throw new Error(`No action ${id}`);
  return action.keys;
}
