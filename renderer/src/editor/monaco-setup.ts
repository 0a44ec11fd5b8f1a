import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor';
import { configureMonacoYaml } from 'monaco-yaml';
import { loadHandlerTypings } from './handler-typings.js';
import { isOpenApiPath, pathOfModelUri } from './languages.js';
import { editorMarkers, type EditorMarker } from './markers-store.js';
import './monaco-environment.js';
import { openApiSchemas, openApiVersionOf, type OpenApiVersion } from './openapi-schemas.js';

/** Owner of the markers that come from the server's diagnostics (the editor's own have other owners). */
export const serverMarkerOwner = 'adaptive-workbench';

// @monaco-editor/react would otherwise fetch Monaco from a CDN: hand it the bundled one.
loader.config({ monaco });

const yaml = configureMonacoYaml(monaco, {
  enableSchemaRequest: false,
  validate: true,
  completion: true,
  hover: true,
  format: { enable: true },
  schemas: [],
});

/** The OpenAPI version of every open spec model, by workspace path. */
const specVersions = new Map<string, OpenApiVersion>();

/**
 * Validates every open spec against the OpenAPI schema of the version it declares: YAML through
 * monaco-yaml, JSON through Monaco's JSON service. Called when a spec opens, closes, or changes version.
 */
function applyOpenApiSchemas(): void {
  const settings = (extension: RegExp) =>
    (Object.keys(openApiSchemas) as OpenApiVersion[]).map((version) => ({
      uri: openApiSchemas[version].uri,
      schema: openApiSchemas[version].schema,
      fileMatch: [...specVersions]
        .filter(([path, v]) => v === version && extension.test(path))
        .map(([path]) => `**/${path}`),
    }));
  void yaml.update({ ...yaml.getOptions(), schemas: settings(/\.ya?ml$/i) });
  monaco.languages.json.jsonDefaults.setDiagnosticsOptions({
    validate: true,
    enableSchemaRequest: false,
    allowComments: false,
    schemas: settings(/\.json$/i),
  });
}

function trackSpecVersion(model: monaco.editor.ITextModel): void {
  const path = pathOfModelUri(model.uri.toString());
  if (path === undefined || !isOpenApiPath(path)) return;
  const check = () => {
    const version = openApiVersionOf(model.getValue());
    if (specVersions.get(path) !== version) {
      specVersions.set(path, version);
      applyOpenApiSchemas();
    }
  };
  check();
  let timer: ReturnType<typeof setTimeout> | undefined;
  model.onDidChangeContent(() => {
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  });
  model.onWillDispose(() => {
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

void loadHandlerTypings(monaco);

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
