/**
 * Every registration with Monaco, whose registries are global to the page: the bundled Monaco for
 * @monaco-editor/react, YAML and OpenAPI validation, the editor's markers for the problems panel and
 * the handler typings when this module loads; the query console's languages through `ensure...()` and
 * `register...()` below.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor';
import { configureMonacoYaml, type MonacoYaml, type SchemasSettings } from 'monaco-yaml';
import type { SparqlVocabulary } from '../../../server/src/contract/index.js';
import { suggestions, type Catalog, type Suggestion } from '../query/completion.js';
import { sparqlSuggestions, type SparqlSuggestion } from '../query/sparql-completion.js';
import { sparqlConfiguration, sparqlMonarch } from '../query/sparql-language.js';
import { afterEditorSettled } from './editor-ready.js';
import { loadHandlerTypings } from './handler-typings.js';
import { isOpenApiPath, pathOfModelUri } from './languages.js';
import { editorMarkers, type EditorMarker } from './markers-store.js';
import './monaco-environment.js';
import { openApiSchemas, openApiVersionOf, type OpenApiVersion } from './openapi-schemas.js';
import { brokenLocalRefs } from './openapi-refs.js';

/** Owner of the markers that come from the server's diagnostics (the editor's own have other owners). */
export const serverMarkerOwner = 'adaptive-workbench';

// @monaco-editor/react would otherwise fetch Monaco from a CDN: hand it the bundled one.
loader.config({ monaco });

/** Resolves once the first file editor has settled: the time for the work its first view does not need. */
const editorSettled = afterEditorSettled();

/** The OpenAPI version of every open spec model, by workspace path. */
const specVersions = new Map<string, OpenApiVersion>();

/** The OpenAPI schemas for the open specs of one format: each version's schema matched to its files. */
function schemaSettings(extension: RegExp): SchemasSettings[] {
  return (Object.keys(openApiSchemas) as OpenApiVersion[]).map((version) => ({
    uri: openApiSchemas[version].uri,
    schema: openApiSchemas[version].schema,
    fileMatch: [...specVersions]
      .filter(([path, v]) => v === version && extension.test(path))
      .map(([path]) => `**/${path}`),
  }));
}

/**
 * monaco-yaml (YAML validation against the OpenAPI schemas, completion, hover, formatting), whose
 * language service is a worker of its own: started once the first file editor has settled, so that the
 * worker's start is not taken from the first paint and keystroke, with the schemas of the specs already
 * open (a change of schemas restarts the worker). Until then YAML files have Monaco's own highlighting.
 */
let yaml: MonacoYaml | undefined;
void editorSettled.then(() => {
  yaml = configureMonacoYaml(monaco, {
    enableSchemaRequest: false,
    validate: true,
    completion: true,
    hover: true,
    format: { enable: true },
    schemas: schemaSettings(/\.ya?ml$/i),
  });
});

/**
 * Validates every open spec against the OpenAPI schema of the version it declares: YAML through
 * monaco-yaml, JSON through Monaco's JSON service. Called when a spec opens, closes, or changes version.
 */
function applyOpenApiSchemas(): void {
  if (yaml) void yaml.update({ ...yaml.getOptions(), schemas: schemaSettings(/\.ya?ml$/i) });
  monaco.languages.json.jsonDefaults.setDiagnosticsOptions({
    validate: true,
    enableSchemaRequest: false,
    allowComments: false,
    schemas: schemaSettings(/\.json$/i),
  });
}

/** Owner of the markers of `$ref`s that point at nothing (the OpenAPI schema does not check where they point). */
const refMarkerOwner = 'openapi-refs';

/** Marks every local `$ref` of a spec model that does not resolve, as the server's loader would refuse it. */
function markBrokenRefs(model: monaco.editor.ITextModel): void {
  const markers = brokenLocalRefs(model.getValue()).map((broken) => ({
    severity: monaco.MarkerSeverity.Error,
    message: broken.message,
    source: 'openapi',
    startLineNumber: broken.line,
    startColumn: broken.column,
    endLineNumber: broken.endLine,
    endColumn: broken.endColumn,
  }));
  monaco.editor.setModelMarkers(model, refMarkerOwner, markers);
}

/**
 * Keeps a spec model checked as it is edited: its OpenAPI version's schema (the version is read from the
 * text at once, so the schemas are right before monaco-yaml's worker sees the file), and its local `$ref`s.
 */
function trackSpecVersion(model: monaco.editor.ITextModel): void {
  const path = pathOfModelUri(model.uri.toString());
  if (path === undefined || !isOpenApiPath(path)) return;
  const followVersion = () => {
    const version = openApiVersionOf(model.getValue());
    if (specVersions.get(path) === version) return;
    specVersions.set(path, version);
    applyOpenApiSchemas();
  };
  followVersion();
  // The first $ref check once the editor has settled, at an idle moment: it parses the whole file, which
  // would hold up the editor's first paint and keystroke.
  let idle: number | undefined;
  let changed = false;
  void editorSettled.then(() => {
    if (!changed && !model.isDisposed()) idle = requestIdleCallback(() => markBrokenRefs(model), { timeout: 2000 });
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  model.onDidChangeContent(() => {
    changed = true;
    if (idle !== undefined) cancelIdleCallback(idle);
    clearTimeout(timer);
    timer = setTimeout(() => {
      followVersion();
      markBrokenRefs(model);
    }, 300);
  });
  model.onWillDispose(() => {
    if (idle !== undefined) cancelIdleCallback(idle);
    clearTimeout(timer);
    specVersions.delete(path);
    applyOpenApiSchemas();
  });
}

monaco.editor.onDidCreateModel(trackSpecVersion);

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

/** Editor options every Monaco editor of the workbench shares (the file editor, the query console). */
export const baseEditorOptions: monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  fontSize: 13,
  tabSize: 2,
  scrollBeyondLastLine: false,
  fixedOverflowWidgets: true,
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
