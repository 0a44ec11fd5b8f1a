import Editor from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import { baseEditorOptions, monaco } from '../editor/monaco-setup.js';
import type { SparqlVocabulary } from '../../../server/src/contract/index.js';
import { suggestions, type Catalog, type Suggestion } from './completion.js';
import { sparqlSuggestions, type SparqlSuggestion } from './sparql-completion.js';
import { sparqlConfiguration, sparqlMonarch } from './sparql-language.js';

/** The catalog and vocabulary the completion providers read: one console at a time, so module-level values. */
let currentCatalog: Catalog = { sources: [], tables: {}, columns: {} };
let currentVocabulary: SparqlVocabulary = { prefixes: {}, classes: [], properties: [] };
let providerRegistered = false;
let sparqlRegistered = false;

const sparqlKinds: Record<SparqlSuggestion['kind'], monaco.languages.CompletionItemKind> = {
  prefix: monaco.languages.CompletionItemKind.Module,
  class: monaco.languages.CompletionItemKind.Class,
  property: monaco.languages.CompletionItemKind.Property,
  variable: monaco.languages.CompletionItemKind.Variable,
  keyword: monaco.languages.CompletionItemKind.Keyword,
};

/** The SPARQL language (Monarch highlighting) and its completion of prefixes, classes and properties; once per page. */
function registerSparql(): void {
  if (sparqlRegistered) return;
  sparqlRegistered = true;
  monaco.languages.register({ id: 'sparql', extensions: ['.rq', '.sparql'], aliases: ['SPARQL'] });
  monaco.languages.setMonarchTokensProvider('sparql', sparqlMonarch);
  monaco.languages.setLanguageConfiguration('sparql', sparqlConfiguration);
  monaco.languages.registerCompletionItemProvider('sparql', {
    triggerCharacters: [':', '?'],
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const before = model.getValueInRange({
        startLineNumber: position.lineNumber,
        startColumn: 1,
        endLineNumber: position.lineNumber,
        endColumn: position.column,
      });
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      const top = { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 };
      return {
        suggestions: sparqlSuggestions(currentVocabulary, before, model.getValue()).map((s, i) => ({
          label: s.label,
          kind: sparqlKinds[s.kind],
          detail: s.detail,
          insertText: s.insertText ?? s.label,
          sortText: `${s.kind === 'keyword' ? 1 : 0}${String(i).padStart(5, '0')}`,
          range,
          additionalTextEdits: s.declare
            ? [{ range: top, text: `PREFIX ${s.declare.prefix}: <${s.declare.iri}>\n` }]
            : undefined,
        })),
      };
    },
  });
}

const kinds: Record<Suggestion['kind'], monaco.languages.CompletionItemKind> = {
  source: monaco.languages.CompletionItemKind.Module,
  table: monaco.languages.CompletionItemKind.Class,
  column: monaco.languages.CompletionItemKind.Field,
  keyword: monaco.languages.CompletionItemKind.Keyword,
};

function registerCompletion(): void {
  if (providerRegistered) return;
  providerRegistered = true;
  monaco.languages.registerCompletionItemProvider('sql', {
    triggerCharacters: ['.'],
    provideCompletionItems(model, position) {
      const word = model.getWordUntilPosition(position);
      const before = model.getValueInRange({
        startLineNumber: position.lineNumber,
        startColumn: 1,
        endLineNumber: position.lineNumber,
        endColumn: word.startColumn,
      });
      const prefix = /((?:[A-Za-z_][\w$]*\.)+)$/.exec(before)?.[1] ?? '';
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      return {
        suggestions: suggestions(currentCatalog, prefix, model.getValue()).map((s, i) => ({
          label: s.label,
          kind: kinds[s.kind],
          detail: s.detail,
          insertText: s.label,
          // Sources, tables and columns before keywords.
          sortText: `${s.kind === 'keyword' ? 1 : 0}${String(i).padStart(5, '0')}`,
          range,
        })),
      };
    },
  });
}

/** A change made from outside the editor: replace the whole text, or insert at the cursor. */
export interface EditorEdit {
  kind: 'replace' | 'insert';
  text: string;
}

export interface SqlEditorProps {
  /** The text of a model made for the first time (models live while the page does). */
  initialValue: string;
  edit?: EditorEdit;
  language: 'sql' | 'sparql' | 'plaintext';
  catalog: Catalog;
  /** Prefixes and terms for SPARQL completion. */
  vocabulary?: SparqlVocabulary;
  theme: 'light' | 'dark';
  onChange(text: string): void;
  onRun(): void;
}

/**
 * The console's query editor (Monaco, bundled): SQL completion of sources, tables and columns, SPARQL
 * highlighting and completion of prefixes, classes and properties; Ctrl/Cmd+Enter runs.
 */
export default function SqlEditor({
  initialValue,
  edit,
  language,
  catalog,
  vocabulary,
  theme,
  onChange,
  onRun,
}: SqlEditorProps) {
  currentCatalog = catalog;
  if (vocabulary) currentVocabulary = vocabulary;
  registerCompletion();
  registerSparql();
  const run = useRef(onRun);
  run.current = onRun;
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const text = useRef(initialValue);
  text.current = initialValue;

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

  return (
    <Editor
      path={`inmemory://query-console/query.${language === 'sql' ? 'sql' : language === 'sparql' ? 'rq' : 'txt'}`}
      defaultValue={initialValue}
      language={language}
      theme={theme === 'dark' ? 'vs-dark' : 'vs'}
      loading={<div className="placeholder">Loading editor…</div>}
      onChange={(text) => onChange(text ?? '')}
      onMount={(editor) => {
        editorRef.current = editor;
        // Monaco keeps a model per path across mounts and then ignores `defaultValue`: the console's
        // text (which may have changed while another tab was shown) wins.
        if (editor.getValue() !== text.current) editor.setValue(text.current);
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => run.current());
      }}
      options={{
        ...baseEditorOptions,
        lineNumbersMinChars: 3,
        wordWrap: language === 'plaintext' ? 'on' : 'off',
        quickSuggestions: language !== 'plaintext',
      }}
    />
  );
}
