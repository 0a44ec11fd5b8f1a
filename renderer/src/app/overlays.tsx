import { useState } from 'react';
import type { WorkspaceEntry } from '../../../server/src/contract/index.js';
import { ShortcutHelp } from './ShortcutHelp.js';
import { WorkbenchPicker, type PickerKind } from './WorkbenchPicker.js';

/**
 * What opens over the workbench: the shortcut help and the pickers (quick-open, command palette, search across
 * files). `handlers` are the actions that open them; `render` draws the one open, if any.
 */
export function useOverlays() {
  const [showHelp, setShowHelp] = useState(false);
  const [picker, setPicker] = useState<PickerKind>();
  const handlers = {
    help: () => setShowHelp((shown) => !shown),
    quickOpen: () => setPicker('files'),
    commandPalette: () => setPicker('commands'),
    searchFiles: () => setPicker('search'),
  };
  const render = (entries: WorkspaceEntry[], actions: Record<string, () => void>) => (
    <>
      {showHelp && <ShortcutHelp onClose={() => setShowHelp(false)} />}
      {picker && (
        <WorkbenchPicker
          key={picker}
          kind={picker}
          entries={entries}
          handlers={actions}
          onClose={() => setPicker(undefined)}
        />
      )}
    </>
  );
  return { handlers, render };
}
