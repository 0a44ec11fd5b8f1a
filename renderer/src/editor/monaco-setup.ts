/**
 * Every registration with Monaco, whose registries are global to the page: the bundled Monaco for
 * @monaco-editor/react, the editor's markers for the problems panel and the handler typings when this module
 * loads, the checks of OpenAPI specs once the first file editor has settled (spec-checks.ts); the query
 * console's languages through `ensure...()` and `register...()` below.
 */
import { loader } from '@monaco-editor/react';
import type { SparqlVocabulary } from '../../../server/src/contract/index.js';
import { suggestions, type Catalog, type Suggestion } from './languages/completion.js';
import { sparqlSuggestions, type SparqlSuggestion } from './languages/sparql-completion.js';
import { sparqlConfiguration, sparqlMonarch } from './languages/sparql-language.js';
import { afterEditorSettled } from './editor-ready.js';
import { loadHandlerTypings } from './handler-typings.js';
import { pathOfModelUri } from './languages.js';
import { editorMarkers, type EditorMarker } from './markers-store.js';
import { monaco } from './monaco-core.js';

/** Owner of the markers that come from the server's diagnostics (the editor's own have other owners). */
export const serverMarkerOwner = 'adaptive-workbench';

// @monaco-editor/react would otherwise fetch Monaco from a CDN: hand it the bundled one.
loader.config({ monaco });

// The checks of OpenAPI specs (monaco-yaml with its worker, the schemas, the `$ref` check: a chunk of their
// own) once the first file editor has settled; until then YAML files have Monaco's own highlighting.
void afterEditorSettled()
  .then(() => import('./spec-checks.js'))
  .then(({ startSpecChecks }) => startSpecChecks(monaco))
  .catch((error: unknown) => console.error('The OpenAPI checks of the editor could not load; reload the page.', error));

const severities: Record<number, EditorMarker['severity']> = {
  [monaco.MarkerSeverity.Error]: 'error',
  [monaco.MarkerSeverity.Warning]: 'warning',
  [monaco.MarkerSeverity.Info]: 'info',
  [monaco.MarkerSeverity.Hint]: 'info',
};

// The editor's own findings (YAML syntax, OpenAPI schema, TypeScript) go to the problems panel too.
monaco.editor.onDidChangeMarkers((uris) => {
  for (const uri of uris) {
    const path = pathOfModelUri(uri.toString());
    if (path === undefined) continue;
    const markers = monaco.editor
      .getModelMarkers({ resource: uri })
      .filter((m) => m.owner !== serverMarkerOwner && m.severity >= monaco.MarkerSeverity.Warning)
      .map((m) => ({
        path,
        severity: severities[m.severity] ?? 'info',
        message: m.message,
        line: m.startLineNumber,
        column: m.startColumn,
        source: (m.source ?? m.owner).split(':')[0],
      }));
    editorMarkers.set(path, markers);
  }
});

/** A function that does its work on the first call only. */
function once(work: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    work();
  };
}

// The handler SDK's typings (a 400 kB chunk, and work for the TypeScript worker) when a handler opens,
// not at start, where they would compete with the first file.
const loadTypingsOnce = once(() => void loadHandlerTypings(monaco));
monaco.editor.onDidCreateModel((model) => {
  if (['typescript', 'javascript'].includes(model.getLanguageId())) loadTypingsOnce();
});

export { monaco };

/** The browser's language as an allowed locale of the unicode highlighter (none where there is no navigator). */
const browserLocale = (): Record<string, true> => {
  const language = globalThis.navigator?.language;
  return language ? { [language]: true } : {};
};

/** Editor options every Monaco editor of the workbench shares (the file editor, the query console). */
export const baseEditorOptions: monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  fontSize: 13,
  tabSize: 2,
  scrollBeyondLastLine: false,
  fixedOverflowWidgets: true,
  // Characters that look like others are allowed for the editor's language and the browser's. The browser's is
  // named here rather than as `_os`, which Monaco resolves through Intl.NumberFormat as each editor is created,
  // starting ICU on the main thread (20-40 ms, more on a loaded machine) on the way to the first file shown; in
  // Chromium, Intl's default locale is `navigator.language`.
  unicodeHighlight: { allowedLocales: { _vscode: true, ...browserLocale() } },
};

/**
 * The SPARQL language of the query console (Monarch highlighting, brackets, comments), replacing
 * Monaco's basic one; registered on the first call.
 */
export const ensureSparqlLanguage = once(() => {
  monaco.languages.register({ id: 'sparql', extensions: ['.rq', '.sparql'], aliases: ['SPARQL'] });
  monaco.languages.setMonarchTokensProvider('sparql', sparqlMonarch);
  monaco.languages.setLanguageConfiguration('sparql', sparqlConfiguration);
});

/** The range of the word at `position`, which a suggestion replaces. */
function wordRange(model: monaco.editor.ITextModel, position: monaco.Position): monaco.IRange {
  const word = model.getWordUntilPosition(position);
  const line = position.lineNumber;
  return { startLineNumber: line, endLineNumber: line, startColumn: word.startColumn, endColumn: word.endColumn };
}

/** The text of the line before `column`. */
function lineBefore(model: monaco.editor.ITextModel, line: number, column: number): string {
  return model.getValueInRange({ startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: column });
}

/** Names before keywords, each group in the order the completion gave them. */
const sortText = (kind: string, index: number) => `${kind === 'keyword' ? 1 : 0}${String(index).padStart(5, '0')}`;

const sqlKinds: Record<Suggestion['kind'], monaco.languages.CompletionItemKind> = {
  source: monaco.languages.CompletionItemKind.Module,
  table: monaco.languages.CompletionItemKind.Class,
  column: monaco.languages.CompletionItemKind.Field,
  keyword: monaco.languages.CompletionItemKind.Keyword,
};

/** Completes the sources, tables and columns of `catalog` (and SQL keywords) in SQL models until disposed. */
export function registerSqlCompletion(catalog: Catalog): monaco.IDisposable {
  return monaco.languages.registerCompletionItemProvider('sql', {
    triggerCharacters: ['.'],
    provideCompletionItems(model, position) {
      const range = wordRange(model, position);
      const before = lineBefore(model, position.lineNumber, range.startColumn);
      const prefix = /((?:[A-Za-z_][\w$]*\.)+)$/.exec(before)?.[1] ?? '';
      return {
        suggestions: suggestions(catalog, prefix, model.getValue()).map((s, i) => ({
          label: s.label,
          kind: sqlKinds[s.kind],
          detail: s.detail,
          insertText: s.label,
          sortText: sortText(s.kind, i),
          range,
        })),
      };
    },
  });
}

const sparqlKinds: Record<SparqlSuggestion['kind'], monaco.languages.CompletionItemKind> = {
  prefix: monaco.languages.CompletionItemKind.Module,
  class: monaco.languages.CompletionItemKind.Class,
  property: monaco.languages.CompletionItemKind.Property,
  variable: monaco.languages.CompletionItemKind.Variable,
  keyword: monaco.languages.CompletionItemKind.Keyword,
};

/**
 * Completes the prefixes, classes and properties of `vocabulary` (declaring a missing PREFIX at the
 * top), variables and keywords in SPARQL models until disposed.
 */
export function registerSparqlCompletion(vocabulary: SparqlVocabulary): monaco.IDisposable {
  return monaco.languages.registerCompletionItemProvider('sparql', {
    triggerCharacters: [':', '?'],
    provideCompletionItems(model, position) {
      const range = wordRange(model, position);
      const before = lineBefore(model, position.lineNumber, position.column);
      const top = { startLineNumber: 1, startColumn: 1, endLineNumber: 1, endColumn: 1 };
      return {
        suggestions: sparqlSuggestions(vocabulary, before, model.getValue()).map((s, i) => ({
          label: s.label,
          kind: sparqlKinds[s.kind],
          detail: s.detail,
          insertText: s.insertText ?? s.label,
          sortText: sortText(s.kind, i),
          range,
          additionalTextEdits: s.declare
            ? [{ range: top, text: `PREFIX ${s.declare.prefix}: <${s.declare.iri}>\n` }]
            : undefined,
        })),
      };
    },
  });
}
