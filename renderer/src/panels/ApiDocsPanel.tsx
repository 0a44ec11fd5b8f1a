import { lazy, Suspense, useEffect, useState } from 'react';
import { useServerState } from '../app/workbench-context.js';
import { afterEditorSettled } from '../editor/editor-ready.js';

// Swagger UI (1.4 MB of script, 190 kB of style, and a long first render) once the file editor is up: at
// start it would take the network and the main thread from the first file.
const SwaggerUI = lazy(async () => {
  await afterEditorSettled();
  const [swagger] = await Promise.all([import('swagger-ui-react'), import('swagger-ui-react/swagger-ui.css')]);
  return swagger;
});

const documentUrl = '/api/adaptive/openapi.json';

/**
 * Swagger UI on the live merged OpenAPI document of the gateway, fetched again after every reload so new
 * routes show up as soon as a save is loaded. "Try it out" calls this same server. Loaded lazily: Swagger
 * UI is large and not needed to start editing.
 */
export default function ApiDocsPanel() {
  const { reloadCount } = useServerState();
  const [spec, setSpec] = useState<string>();
  const [error, setError] = useState<string>();
  const [fetchedAt, setFetchedAt] = useState<Date>();

  useEffect(() => {
    const controller = new AbortController();
    fetch(documentUrl, { cache: 'no-store', signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        setSpec(await response.text());
        setFetchedAt(new Date());
        setError(undefined);
      })
      .catch((e: Error) => {
        if (!controller.signal.aborted) setError(e.message);
      });
    return () => controller.abort();
  }, [reloadCount]);

  return (
    <div className="panel-column api-docs">
      <div className="toolbar">
        <span className="muted">
          {fetchedAt ? `Updated ${fetchedAt.toLocaleTimeString(undefined, { hour12: false })}` : 'Loading…'}
        </span>
        <span className="spacer" />
        <a href="/api/adaptive/swagger-ui/" target="_blank" rel="noreferrer">
          Open in a new tab
        </a>
      </div>
      {error && (
        <div className="banner error">
          Cannot load {documentUrl}: {error}
        </div>
      )}
      <div className="panel-scroll swagger-host" data-reload={reloadCount}>
        {spec && (
          <Suspense fallback={<div className="placeholder">Loading the API docs…</div>}>
            <SwaggerUI
              spec={spec}
              docExpansion="list"
              defaultModelsExpandDepth={0}
              displayRequestDuration
              deepLinking={false}
            />
          </Suspense>
        )}
      </div>
    </div>
  );
}
