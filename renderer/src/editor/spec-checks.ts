/**
 * The editor's checks of OpenAPI specs: each open spec validated against the schema of the OpenAPI version
 * it declares (YAML through monaco-yaml, whose language service is a worker of its own; JSON through Monaco's
 * JSON service), and its local `$ref`s resolved as the server's loader would. Loaded once the first file
 * editor has settled (monaco-setup.ts): the first paint and keystroke need none of it.
 */
import type * as Monaco from 'monaco-editor';
import { configureMonacoYaml, type MonacoYaml, type SchemasSettings } from 'monaco-yaml';
import { isOpenApiPath, pathOfModelUri } from './languages.js';
import { brokenLocalRefs } from './openapi-refs.js';
import { openApiSchemas, openApiVersionOf, type OpenApiVersion } from './openapi-schemas.js';

/** Owner of the markers of `$ref`s that point at nothing (the OpenAPI schema does not check where they point). */
const refMarkerOwner = 'openapi-refs';

/**
 * Starts the checks for the spec models open now and every one opened later. monaco-yaml starts after the
 * open specs' versions are known, so its worker starts once, with their schemas (a change of schemas
 * restarts it).
 */
export function startSpecChecks(monaco: typeof Monaco): void {
  /** The OpenAPI version of every open spec model, by workspace path. */
  const specVersions = new Map<string, OpenApiVersion>();
  // Set once the open specs' versions are known (at the end): until then a version change only records it.
  let yaml: MonacoYaml | undefined = undefined;

  /** The OpenAPI schemas for the open specs of one format: each version's schema matched to its files. */
  const schemaSettings = (extension: RegExp): SchemasSettings[] =>
    (Object.keys(openApiSchemas) as OpenApiVersion[]).map((version) => ({
      uri: openApiSchemas[version].uri,
      schema: openApiSchemas[version].schema,
      fileMatch: [...specVersions]
        .filter(([path, v]) => v === version && extension.test(path))
        .map(([path]) => `**/${path}`),
    }));

  /** Called when a spec opens, closes, or changes version. */
  const applyOpenApiSchemas = () => {
    if (yaml) void yaml.update({ ...yaml.getOptions(), schemas: schemaSettings(/\.ya?ml$/i) });
    monaco.languages.json.jsonDefaults.setDiagnosticsOptions({
      validate: true,
      enableSchemaRequest: false,
      allowComments: false,
      schemas: schemaSettings(/\.json$/i),
    });
  };

  /** Marks every local `$ref` of a spec model that does not resolve, as the server's loader would refuse it. */
  const markBrokenRefs = (model: Monaco.editor.ITextModel) => {
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
  };

  /** Keeps a spec model checked as it is edited: its OpenAPI version's schema, and its local `$ref`s. */
  const track = (model: Monaco.editor.ITextModel) => {
    const path = pathOfModelUri(model.uri.toString());
    if (path === undefined || !isOpenApiPath(path)) return;
    const followVersion = () => {
      const version = openApiVersionOf(model.getValue());
      if (specVersions.get(path) === version) return;
      specVersions.set(path, version);
      applyOpenApiSchemas();
    };
    followVersion();
    // The first $ref check at an idle moment: it parses the whole file, which would hold up a newly opened
    // file's first paint.
    const first = requestIdleCallback(() => markBrokenRefs(model), { timeout: 2000 });
    let timer: ReturnType<typeof setTimeout> | undefined;
    model.onDidChangeContent(() => {
      cancelIdleCallback(first);
      clearTimeout(timer);
      timer = setTimeout(() => {
        followVersion();
        markBrokenRefs(model);
      }, 300);
    });
    model.onWillDispose(() => {
      cancelIdleCallback(first);
      clearTimeout(timer);
      specVersions.delete(path);
      applyOpenApiSchemas();
    });
  };

  for (const model of monaco.editor.getModels()) track(model);
  monaco.editor.onDidCreateModel(track);
  yaml = configureMonacoYaml(monaco, {
    enableSchemaRequest: false,
    validate: true,
    completion: true,
    hover: true,
    format: { enable: true },
    schemas: schemaSettings(/\.ya?ml$/i),
  });
}
