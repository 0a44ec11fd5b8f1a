import { DiffEditor } from '@monaco-editor/react';
import { languageOf } from './languages.js';
import { baseEditorOptions } from './monaco-setup.js';

export interface DiskDiffProps {
  path: string;
  /** The file on disk now. */
  disk: string;
  /** The editor's unsaved text. */
  mine: string;
  theme: 'light' | 'dark';
}

/** Monaco's diff editor: the file on disk (left) against the editor's unsaved text (right), read-only. */
export default function DiskDiff({ path, disk, mine, theme }: DiskDiffProps) {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return (
    <DiffEditor
      original={disk}
      modified={mine}
      originalModelPath={`inmemory://disk/${encoded}`}
      modifiedModelPath={`inmemory://mine/${encoded}`}
      language={languageOf(path)}
      theme={theme === 'dark' ? 'vs-dark' : 'vs'}
      loading={<div className="placeholder">Loading compare…</div>}
      options={{ ...baseEditorOptions, readOnly: true, originalEditable: false, renderSideBySide: true }}
    />
  );
}
