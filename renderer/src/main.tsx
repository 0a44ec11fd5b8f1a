import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { WorkbenchApi } from './api/client.js';
import { App } from './app/App.js';
import './styles.css';

const tokenKey = 'adaptive-workbench:token';

/**
 * The token from the URL the server printed (`/workbench/?token=...`), kept for this browser tab and
 * removed from the address bar so it does not end up in history, bookmarks or screenshots.
 */
function takeToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(tokenKey, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(tokenKey) ?? undefined;
}

function TokenPrompt({ rejected, onToken }: { rejected: boolean; onToken(token: string): void }) {
  const [value, setValue] = useState('');
  return (
    <div className="token-prompt">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const match = /[?&]token=([^&#]+)/.exec(value);
          const token = match ? decodeURIComponent(match[1]) : value.trim();
          if (token) onToken(token);
        }}
      >
        <h1>Adaptive Workbench</h1>
        <p>
          {rejected ? 'The server did not accept the token: it changes every time the server starts. ' : ''}
          Open the URL that <code>adaptive-gateway serve --workbench</code> printed, or paste it (or its token) here.
        </p>
        <input
          aria-label="Workbench URL or token"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          autoFocus
          placeholder="http://127.0.0.1:8080/workbench/?token=…"
        />
        <button type="submit">Open</button>
      </form>
    </div>
  );
}

function Root() {
  const [token, setToken] = useState(takeToken);
  const [rejected, setRejected] = useState(false);
  const api = useMemo(() => {
    if (!token) return undefined;
    // The server refused the token: ask for the new one.
    return new WorkbenchApi(token, () => {
      sessionStorage.removeItem(tokenKey);
      setRejected(true);
      setToken(undefined);
    });
  }, [token]);
  if (!api) {
    return (
      <TokenPrompt
        rejected={rejected}
        onToken={(t) => {
          sessionStorage.setItem(tokenKey, t);
          setToken(t);
        }}
      />
    );
  }
  return <App key={api.token} api={api} />;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
