// The global stylesheets first: every feature's own stylesheet, imported by its components, comes after them.
import './base/tokens.css';
import './base/base.css';
import './base/kit.css';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { WorkbenchApi } from './api/client.js';
import { App } from './app/App.js';
import { TokenPrompt } from './app/TokenPrompt.js';
import { SignInHost } from './auth/SignInHost.js';

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

/**
 * The workbench once there is a token, else the prompt for one. When the server refuses the token (it
 * restarted with a new one), the prompt shows over the open workbench, and the new token replaces the
 * old one in place: no reload, so tabs, unsaved edits and panels stay.
 */
function Root() {
  const [rejected, setRejected] = useState(false);
  const [api, setApi] = useState<WorkbenchApi | undefined>(() => {
    const token = takeToken();
    return token ? workbenchApi(token) : undefined;
  });

  function workbenchApi(token: string): WorkbenchApi {
    return new WorkbenchApi(token, () => {
      sessionStorage.removeItem(tokenKey);
      setRejected(true);
    });
  }

  const acceptToken = (token: string) => {
    sessionStorage.setItem(tokenKey, token);
    setRejected(false);
    if (api) api.replaceToken(token);
    else setApi(workbenchApi(token));
  };
  if (!api) return <TokenPrompt rejected={rejected} onToken={acceptToken} />;
  return (
    <>
      <App api={api} />
      <SignInHost api={api} />
      {rejected && <TokenPrompt rejected overlay onToken={acceptToken} />}
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
