import { lazy, useEffect, useMemo, useRef, useState } from 'react';
import { Loadable } from '../platform/Loadable.js';
import { useServerState, useSessionState, useWorkbench } from '../platform/workbench-context.js';
import { afterEditorSettled } from '../editor/editor-ready.js';
import { allSpecsUrl, documentUrl, lastGoodFiles, mountsOf } from './api-docs.js';
import { withSignIn, type InterceptedRequest } from '../api/client.js';
import { useAuthState } from '../api/auth-session.js';
import { ownFetch, tryOutHeader } from '../api/own-fetch.js';
import { timeOfDay } from '../base/clock.js';
import './api-docs.css';

// Swagger UI (1.4 MB of script, 190 kB of style, and a long first render) once the file editor is up: at
// start it would take the network and the main thread from the first file.
const SwaggerUI = lazy(async () => {
  await afterEditorSettled();
  const [swagger] = await Promise.all([import('swagger-ui-react'), import('swagger-ui-react/swagger-ui.css')]);
  return swagger;
});

/**
 * Swagger UI's `requestInterceptor`: "Try it out" calls carry the signed-in user's credentials, and are
 * marked as try-outs for the requests panel (this page sends no Referer that would tell).
 */
function tryOutRequest<R extends InterceptedRequest>(request: R): R {
  withSignIn(request).headers[tryOutHeader] = 'swagger-ui';
  return request;
}

/**
 * Swagger UI renders its operations in a `main` element of its own; inside the workbench, whose `main` holds
 * the editor, it is a named region instead, so the page has one main landmark. Its servers picker has no
 * name (axe: select-name); it gets one. Swagger UI re-creates those elements as it re-renders, hence the
 * observer.
 */
function useSwaggerLandmarksAndNames() {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const demote = () => {
      for (const main of element.querySelectorAll('main:not([role])')) {
        main.setAttribute('role', 'region');
        main.setAttribute('aria-label', main.getAttribute('aria-label') ?? 'Operations');
      }
      for (const servers of element.querySelectorAll('select#servers:not([aria-label])'))
        servers.setAttribute('aria-label', 'Servers');
    };
    demote();
    const observer = new MutationObserver(demote);
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return host;
}

/**
 * Fetches `url` (none when undefined) again on every reload and after signing in or out (the document is
 * protected with AUTH_ENABLED); `no-cache` revalidates with the server's ETag,
 * so an unchanged document is a 304.
 */
function useDocument(url: string | undefined, reloadCount: number) {
  const [spec, setSpec] = useState<string>();
  const [error, setError] = useState<string>();
  const [fetchedAt, setFetchedAt] = useState<Date>();
  const { session } = useAuthState();
  useEffect(() => {
    if (url === undefined) return;
    const controller = new AbortController();
    ownFetch(url, { cache: 'no-cache', signal: controller.signal })
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
  }, [url, reloadCount, session]);
  return { spec, error, fetchedAt };
}

/** "All specs" or one mount's own document; a picked mount that went away stays listed until another is picked. */
function SpecPicker({ mounts, mount, onPick }: { mounts: string[]; mount: string; onPick(mount: string): void }) {
  return (
    <select aria-label="API document" value={mount} onChange={(e) => onPick(e.target.value)}>
      <option value="">All specs</option>
      {(mount === '' || mounts.includes(mount) ? mounts : [...mounts, mount]).map((m) => (
        <option key={m} value={m}>
          /{m}
        </option>
      ))}
    </select>
  );
}

/** Files that fail to load now while their last good version keeps serving: the docs show that version. */
function LastGoodBanners() {
  const diagnostics = useServerState((s) => s.diagnostics);
  const { showPanel } = useWorkbench();
  return lastGoodFiles(diagnostics).map((file) => (
    <div key={file.path} className="banner warning notice last-good" role="status">
      <span>
        {file.path} has errors; serving its last good version (saved {timeOfDay(file.loadedAt, { seconds: false })}).
      </span>
      <button type="button" onClick={() => showPanel('problems')}>
        Show problems
      </button>
    </div>
  ));
}

/**
 * Swagger UI on the live OpenAPI document of the gateway (every mount merged, or one picked), fetched again
 * after every reload so new routes show up as soon as a save is loaded. "Try it out" calls this same server.
 * Swagger UI itself loads after the file editor: it is large and not needed to start editing.
 */
export default function ApiDocsPanel() {
  const reloadCount = useServerState((s) => s.reloadCount);
  const [mount, setMount] = useSessionState('docs.mount', '');
  const url = documentUrl(mount);
  // The merged document always (the picker lists its mounts); one mount's own when one is picked.
  const all = useDocument(allSpecsUrl, reloadCount);
  const picked = useDocument(mount === '' ? undefined : url, reloadCount);
  const { spec, error, fetchedAt } = mount === '' ? all : picked;
  const mounts = useMemo(() => (all.spec ? mountsOf(all.spec) : []), [all.spec]);
  const host = useSwaggerLandmarksAndNames();

  return (
    <div className="panel-column api-docs">
      <div className="toolbar">
        <SpecPicker mounts={mounts} mount={mount} onPick={setMount} />
        <span className="muted">{fetchedAt ? `Updated ${timeOfDay(fetchedAt)}` : 'Loading…'}</span>
        <span className="spacer" />
        <a href="/api/adaptive/swagger-ui/" target="_blank" rel="noreferrer">
          Open in a new tab
        </a>
      </div>
      <LastGoodBanners />
      {error && (
        <div className="banner error">
          Cannot load {url}: {error}
        </div>
      )}
      <div ref={host} className="panel-scroll swagger-host" data-reload={reloadCount} data-document={url}>
        {spec && (
          <Loadable what="the API docs">
            <SwaggerUI
              spec={spec}
              docExpansion="list"
              defaultModelsExpandDepth={0}
              displayRequestDuration
              requestInterceptor={tryOutRequest}
              // The curl snippet and Request URL from the request as built, before tryOutRequest: the
              // try-out mark is the workbench's own, and a copied command must not carry it (nor the
              // signed-in user's token). Execute still sends the intercepted request.
              showMutatedRequest={false}
              deepLinking={false}
            />
          </Loadable>
        )}
      </div>
    </div>
  );
}
