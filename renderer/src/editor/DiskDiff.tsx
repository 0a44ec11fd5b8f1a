import { useLayoutEffect, useRef } from 'react';
import { DiffEditor, type MonacoDiffEditor } from '@monaco-editor/react';
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
  const editor = useRef<MonacoDiffEditor>(undefined);
  // @monaco-editor/react disposes the two models before the diff widget that still shows them, which Monaco
  // reports as an error ("TextModel got disposed before DiffEditorWidget model got reset") on every close
  // (suren-atoyan/monaco-react#647). It keeps them instead (keepCurrent*Model), and they go here: a layout
  // effect's cleanup runs before the library's, while the widget can still let go of them.
  useLayoutEffect(
    () => () => {
      const widget = editor.current;
      const models = widget?.getModel();
      widget?.setModel(null);
      models?.original.dispose();
      models?.modified.dispose();
    },
    [],
  );
  return (
    <DiffEditor
      onMount={(mounted) => (editor.current = mounted)}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
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
