import Editor from '@monaco-editor/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { SparqlVocabulary } from '../../../server/src/contract/index.js';
import {
  baseEditorOptions,
  ensureSparqlLanguage,
  monaco,
  registerSparqlCompletion,
  registerSqlCompletion,
} from '../editor/monaco-setup.js';
import type { Catalog } from '../editor/languages/completion.js';
import { formatSparql, formatSql } from './query-format.js';
import type { RunRequest } from './sql-statements.js';

const extensions = { sql: 'sql', sparql: 'rq', plaintext: 'txt' } as const;
const noVocabulary: SparqlVocabulary = { prefixes: {}, classes: [], properties: [] };

/** A change made from outside the editor: replace the whole text, or insert at the cursor. */
export interface EditorEdit {
  kind: 'replace' | 'insert';
  text: string;
}

/** An error of the last run to mark in the text: where, and what the server said. */
export interface EditorErrorMark {
  line: number;
  column: number;
  message: string;
}

export interface SqlEditorProps {
  /** The text of a model made for the first time (models live while the page does). */
  initialValue: string;
  edit?: EditorEdit;
  language: 'sql' | 'sparql' | 'plaintext';
  catalog: Catalog;
  /** Prefixes and terms for SPARQL completion. */
  vocabulary?: SparqlVocabulary;
  /** The last run's error in this text, marked (squiggle, hover, overview ruler) until the next run. */
  errorMark?: EditorErrorMark;
  theme: 'light' | 'dark';
  /** Names this editor's model (its query tab): tabs never share a model, so never their text. */
  modelKey: string;
  /** Word wrap. */
  wrap: boolean;
  onChange(text: string): void;
  /** Ctrl/Cmd+Enter (the selection, else the statement at the cursor) or Ctrl/Cmd+Shift+Enter (the script). */
  onRun(request: RunRequest): void;
  /** Tells why the text was not formatted. */
  onNotify(message: string): void;
}

/**
 * The console's query editor (Monaco, bundled): SQL completion of sources, tables and columns, SPARQL
 * highlighting and completion of prefixes, classes and properties; Ctrl/Cmd+Enter runs the selection or the
 * statement at the cursor, Ctrl/Cmd+Shift+Enter the script, Shift+Alt+F formats.
 */
export default function SqlEditor({
  initialValue,
  edit,
  language,
  catalog,
  vocabulary,
  errorMark,
  theme,
  modelKey,
  wrap,
  onChange,
  onRun,
  onNotify,
}: SqlEditorProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const [mounted, setMounted] = useState(false);
  // Read by the editor's own callbacks (set up once, on mount): this render's values, kept current.
  const run = useRef(onRun);
  const notify = useRef(onNotify);
  const text = useRef(initialValue);
  useEffect(() => {
    run.current = onRun;
    notify.current = onNotify;
    text.current = initialValue;
  });

  // Completion from this console's catalog and vocabulary, while it is shown.
  useEffect(() => {
    const providers = [registerSqlCompletion(catalog), registerSparqlCompletion(vocabulary ?? noVocabulary)];
    return () => providers.forEach((provider) => provider.dispose());
  }, [catalog, vocabulary]);

  // Changes from outside (history, names from the sidebar) arrive as edits, never as a controlled
  // value: React renders the previous text after a keystroke, and syncing it back would eat keys.
  useEffect(() => {
    const editor = editorRef.current;
    const model = editor?.getModel();
    if (!editor || !model || !edit) return;
    if (edit.kind === 'replace') {
      editor.executeEdits('query-console', [{ range: model.getFullModelRange(), text: edit.text }]);
      editor.setPosition(model.getPositionAt(edit.text.length));
    } else {
      const selection = editor.getSelection() ?? model.getFullModelRange();
      editor.executeEdits('query-console', [{ range: selection, text: edit.text, forceMoveMarkers: true }]);
    }
    editor.focus();
  }, [edit]);

  useErrorMarker(editorRef, mounted, errorMark);

  return (
    <Editor
      path={`inmemory://query-console/${encodeURIComponent(modelKey)}.${extensions[language]}`}
      defaultValue={initialValue}
      language={language}
      theme={theme === 'dark' ? 'vs-dark' : 'vs'}
      loading={<div className="placeholder">Loading editor…</div>}
      beforeMount={ensureSparqlLanguage}
      onChange={(text) => onChange(text ?? '')}
      onMount={(editor) => {
        editorRef.current = editor;
        setMounted(true);
        // Monaco keeps a model per path across mounts and then ignores `defaultValue`: the tab's
        // text (which may have changed while another tab was shown) wins.
        if (editor.getValue() !== text.current) editor.setValue(text.current);
        const runRequest = (script: boolean) => run.current({ ...selectionOf(editor), script });
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => runRequest(false));
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyMod.Shift | monaco.KeyCode.Enter, () => runRequest(true));
        editor.addCommand(monaco.KeyMod.Shift | monaco.KeyMod.Alt | monaco.KeyCode.KeyF, () =>
          formatIn(editor, notify.current),
        );
      }}
      options={{
        ...baseEditorOptions,
        lineNumbersMinChars: 3,
        wordWrap: wrap || language === 'plaintext' ? 'on' : 'off',
        quickSuggestions: language !== 'plaintext',
      }}
    />
  );
}

/** The cursor and the selection (when not empty) as offsets in the text. */
function selectionOf(editor: monaco.editor.IStandaloneCodeEditor): Omit<RunRequest, 'script'> {
  const model = editor.getModel();
  const selection = editor.getSelection();
  if (!model || !selection) return { cursor: 0 };
  const cursor = model.getOffsetAt(selection.getPosition());
  if (selection.isEmpty()) return { cursor };
  const start = model.getOffsetAt(selection.getStartPosition());
  return { cursor, selection: { start, end: model.getOffsetAt(selection.getEndPosition()) } };
}

/** Formats the whole text as one edit (Ctrl+Z undoes it); says why when it cannot. */
function formatIn(editor: monaco.editor.IStandaloneCodeEditor, notify: (message: string) => void): void {
  const model = editor.getModel();
  const language = model?.getLanguageId();
  if (!model || (language !== 'sql' && language !== 'sparql')) return;
  const formatted = (language === 'sparql' ? formatSparql : formatSql)(model.getValue());
  if ('refused' in formatted) return notify(formatted.refused);
  if (formatted.text === model.getValue()) return;
  editor.pushUndoStop();
  editor.executeEdits('query-format', [{ range: model.getFullModelRange(), text: formatted.text }]);
  editor.pushUndoStop();
}

/** Marks `mark` in the editor's model (the word at its place, or one character), and clears it when it goes. */
function useErrorMarker(
  editorRef: RefObject<monaco.editor.IStandaloneCodeEditor | null>,
  mounted: boolean,
  mark: EditorErrorMark | undefined,
): void {
  // A new object with the same place and message marks nothing new.
  const { line = 0, column = 0, message = '' } = mark ?? {};
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!mounted || !model) return;
    const owner = 'query-console';
    if (line < 1 || line > model.getLineCount()) return monaco.editor.setModelMarkers(model, owner, []);
    const word = model.getWordAtPosition({ lineNumber: line, column });
    const endColumn = Math.max(word?.endColumn ?? 0, column + 1);
    monaco.editor.setModelMarkers(model, owner, [
      {
        severity: monaco.MarkerSeverity.Error,
        message,
        startLineNumber: line,
        startColumn: column,
        endLineNumber: line,
        endColumn,
      },
    ]);
    return () => monaco.editor.setModelMarkers(model, owner, []);
  }, [editorRef, mounted, line, column, message]);
}
