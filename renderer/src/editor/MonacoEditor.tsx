import Editor from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import type { WorkbenchDiagnostic } from '../../../server/src/contract/index.js';
import { editorMounted } from './editor-ready.js';
import { languageOf, modelUri, pathOfModelUri } from './languages.js';
import { baseEditorOptions, monaco, serverMarkerOwner } from './monaco-setup.js';

/** Where to move the cursor (from the problems panel); `nonce` makes the same place revealable twice. */
export interface RevealRequest {
  path: string;
  line: number;
  column: number;
  nonce: number;
}

export interface MonacoEditorProps {
  path: string;
  /** The text a new model starts with (the file as loaded), and the text a new {@link revision} brings. */
  initialText: string;
  /** Changes when the document's text was replaced from outside the editor (reloaded from disk). */
  revision: number;
  theme: 'light' | 'dark';
  /** Every open path: models of other paths are disposed (a closed tab forgets its undo history). */
  openPaths: string[];
  /** The server's diagnostics, for every file. */
  diagnostics: WorkbenchDiagnostic[];
  reveal?: RevealRequest;
  onChange(path: string, text: string): void;
  onSave(path: string): void;
}

const markerSeverity = {
  error: monaco.MarkerSeverity.Error,
  warning: monaco.MarkerSeverity.Warning,
  info: monaco.MarkerSeverity.Info,
};

function toMarker(model: monaco.editor.ITextModel, diagnostic: WorkbenchDiagnostic): monaco.editor.IMarkerData {
  const line = Math.min(Math.max(diagnostic.line ?? 1, 1), model.getLineCount());
  const column = Math.max(diagnostic.column ?? 1, 1);
  return {
    severity: markerSeverity[diagnostic.severity],
    message: diagnostic.message,
    source: diagnostic.source ?? 'server',
    ...(diagnostic.rule === undefined ? {} : { code: diagnostic.rule }),
    startLineNumber: line,
    startColumn: column,
    endLineNumber: line,
    endColumn: diagnostic.column === undefined ? model.getLineMaxColumn(line) : column + 1,
  };
}

/** Sets the markers of a workspace file's model from the server's diagnostics (other models are left alone). */
function applyDiagnostics(model: monaco.editor.ITextModel, diagnostics: WorkbenchDiagnostic[]): void {
  const modelPath = pathOfModelUri(model.uri.toString());
  if (modelPath === undefined) return;
  const markers = diagnostics.filter((d) => d.path === modelPath).map((d) => toMarker(model, d));
  monaco.editor.setModelMarkers(model, serverMarkerOwner, markers);
}

/** The Monaco editor for one workspace file at a time (one model per open tab), loaded on demand. */
export default function MonacoEditor(props: MonacoEditorProps) {
  const { path, initialText, revision, theme, openPaths, diagnostics, reveal } = props;
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  // The editor's own callbacks (set up once, on mount) call this render's handlers.
  const callbacks = useRef(props);
  useEffect(() => {
    callbacks.current = props;
  });

  // The server's diagnostics as markers on every open model.
  useEffect(() => {
    for (const model of monaco.editor.getModels()) applyDiagnostics(model, diagnostics);
  }, [diagnostics, path]);

  // A model created after its file's diagnostics arrived (the first file opened: the editor loads on demand,
  // and the lint result is often there before it) gets them when it is created.
  useEffect(() => {
    const subscription = monaco.editor.onDidCreateModel((model) =>
      applyDiagnostics(model, callbacks.current.diagnostics),
    );
    return () => subscription.dispose();
  }, []);

  useEffect(() => {
    const open = new Set(openPaths.map(modelUri));
    for (const model of monaco.editor.getModels()) {
      if (
        model.uri.scheme === 'file' &&
        !open.has(model.uri.toString()) &&
        !model.uri.path.startsWith('/node_modules/')
      )
        model.dispose();
    }
  }, [openPaths]);

  // Text reloaded from disk replaces the model's as one edit, which Ctrl+Z undoes.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model || pathOfModelUri(model.uri.toString()) !== path || model.getValue() === initialText) return;
    model.pushEditOperations([], [{ range: model.getFullModelRange(), text: initialText }], () => null);
    // Only a new revision (or another tab) brings text from outside: keystrokes arrive through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, revision]);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || !reveal || reveal.path !== path) return;
    editor.revealLineInCenter(reveal.line);
    editor.setPosition({ lineNumber: reveal.line, column: reveal.column });
    editor.focus();
  }, [reveal, path]);

  return (
    <Editor
      path={modelUri(path)}
      defaultValue={initialText}
      language={languageOf(path)}
      theme={theme === 'dark' ? 'vs-dark' : 'vs'}
      loading={<div className="placeholder">Loading editor…</div>}
      onChange={(value) => {
        // The model, not this render's `path`: the change may land while tabs switch.
        const changed = pathOfModelUri(editorRef.current?.getModel()?.uri.toString() ?? '');
        if (changed) callbacks.current.onChange(changed, value ?? '');
      }}
      onMount={(editor) => {
        editorRef.current = editor;
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => {
          const current = pathOfModelUri(editor.getModel()?.uri.toString() ?? '');
          if (current) callbacks.current.onSave(current);
        });
        editorMounted();
      }}
      options={{ ...baseEditorOptions, renderWhitespace: 'selection' }}
    />
  );
}
