import { useEffect, useState } from 'react';
import SwaggerUI from 'swagger-ui-react';
import 'swagger-ui-react/swagger-ui.css';
import { useServerState } from '../app/workbench-context.js';
import { withSignIn, type InterceptedRequest } from '../api/client.js';
import { useAuthState } from '../auth/session.js';
import { ownFetch, tryOutHeader } from '../requests/own-fetch.js';

const documentUrl = '/api/adaptive/openapi.json';

/**
 * Swagger UI's `requestInterceptor`: "Try it out" calls carry the signed-in user's credentials, and are
 * marked as try-outs for the requests panel (this page sends no Referer that would tell).
 */
function tryOutRequest<R extends InterceptedRequest>(request: R): R {
  withSignIn(request).headers[tryOutHeader] = 'swagger-ui';
  return request;
}

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
  // The document is protected with AUTH_ENABLED: fetched again after signing in or out.
  const { session } = useAuthState();

  useEffect(() => {
    const controller = new AbortController();
    ownFetch(documentUrl, { cache: 'no-store', signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) {
          const refusal = (await response.json().catch(() => ({}))) as { detail?: string };
          throw new Error(refusal.detail ?? `${response.status} ${response.statusText}`);
        }
        setSpec(await response.text());
        setFetchedAt(new Date());
        setError(undefined);
      })
      .catch((e: Error) => {
        if (!controller.signal.aborted) setError(e.message);
      });
    return () => controller.abort();
  }, [reloadCount, session]);

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
          <SwaggerUI
            spec={spec}
            docExpansion="list"
            defaultModelsExpandDepth={0}
            displayRequestDuration
            requestInterceptor={tryOutRequest}
            deepLinking={false}
          />
        )}
      </div>
    </div>
  );
}
