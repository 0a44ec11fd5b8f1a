import { useState } from 'react';
import { useSessionState } from '../../platform/workbench-context.js';
import type { QueryMode } from '../query-runs.js';
import { savingKey } from './query-commands.js';
import { extensionOf, savedQueryFolder } from './query-tabs.js';

export interface SaveQueryFormProps {
  /** The name offered (the tab's title as a file name). */
  suggested: string;
  /** The extension the kind's files get (`.sql`, `.rq`). */
  extension: string;
  /** Saves under `name`; resolves true when saved (the tab then shows the file). */
  onSave(name: string): Promise<boolean>;
  onCancel(): void;
}

/**
 * The name of a query to save, asked in the tab itself (the desktop app has no `window.prompt`): Enter
 * saves, Escape cancels; a refused name leaves the field open with the reason in the status bar.
 */
export function SaveQueryForm({ suggested, extension, onSave, onCancel }: SaveQueryFormProps) {
  const [name, setName] = useState(suggested);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    if (!(await onSave(name))) setSaving(false);
  };
  return (
    <form
      className="toolbar save-query"
      aria-label="Save query as"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label>
        {savedQueryFolder}/{' '}
        <input
          aria-label="Query file name"
          value={name}
          autoFocus
          // The offered name selected: typing replaces it rather than being appended to it.
          onFocus={(e) => e.currentTarget.select()}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && onCancel()}
        />
      </label>
      <span className="muted">{extension}</span>
      <button type="submit" className="primary" disabled={saving || name.trim() === ''}>
        Save
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** The {@link SaveQueryForm} of a query tab while it asks for a name (Save query as…, or Ctrl+S). */
export function SaveQueryPrompt(props: {
  kind: QueryMode;
  suggested?: string;
  onSave(name: string): Promise<boolean>;
}) {
  const [naming, setNaming] = useSessionState(savingKey, false);
  const extension = extensionOf(props.kind);
  if (!naming || !extension) return null;
  return (
    <SaveQueryForm
      suggested={props.suggested ?? ''}
      extension={extension}
      onSave={props.onSave}
      onCancel={() => setNaming(false)}
    />
  );
}
