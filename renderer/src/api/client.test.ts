import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from './auth-session.js';
import { ApiError, errorPosition, gatewayFetch, tokenHeader, withSignIn, WorkbenchApi } from './client.js';

/** One call the fake `fetch` saw. */
interface Seen {
  url: string;
  init: RequestInit;
}

/** Stubs `fetch` to answer every call with `answer()`, recording the calls. */
function fakeFetch(answer: () => Response): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return answer();
  });
  return seen;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  authStore.signOut();
});

describe('errorPosition', () => {
  it('takes line and column only when both are positive integers', () => {
    expect(errorPosition({ line: 3, column: 7 })).toEqual({ line: 3, column: 7 });
    expect(errorPosition({ line: 3 })).toBeUndefined();
    expect(errorPosition({ line: 0, column: 1 })).toBeUndefined();
    expect(errorPosition({ line: 1.5, column: 1 })).toBeUndefined();
    expect(errorPosition({ line: '2', column: 1 })).toBeUndefined();
    expect(errorPosition({ line: Number.NaN, column: Infinity })).toBeUndefined();
  });
});

describe('WorkbenchApi', () => {
  let unauthorized: number;
  let api: WorkbenchApi;
  beforeEach(() => {
    unauthorized = 0;
    api = new WorkbenchApi('tok-1', () => unauthorized++);
  });

  it('sends the token, a JSON body and encoded paths, and reads the JSON answer', async () => {
    const seen = fakeFetch(() => json(201, { path: 'a b/ü.yaml', version: 'v1' }));
    await expect(api.write('a b/ü.yaml', 'x: 1', 'v0')).resolves.toEqual({ path: 'a b/ü.yaml', version: 'v1' });
    const [{ url, init }] = seen;
    expect(url).toBe('/api/workbench/files/content?path=a%20b%2F%C3%BC.yaml');
    expect(init.method).toBe('PUT');
    expect(init.credentials).toBe('omit');
    expect((init.headers as Record<string, string>)[tokenHeader]).toBe('tok-1');
    expect(JSON.parse(init.body as string)).toEqual({ content: 'x: 1', baseVersion: 'v0' });
  });

  it('resolves with nothing on 204', async () => {
    fakeFetch(() => new Response(null, { status: 204 }));
    await expect(api.remove('a.yaml')).resolves.toBeUndefined();
  });

  it('throws an ApiError with the detail, code and place of a refusal', async () => {
    fakeFetch(() => json(409, { detail: 'changed on disk', code: 'WB_STALE_SAVE', line: 2, column: 4 }));
    const error = (await api.write('a.yaml', '', 'v0').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe('changed on disk');
    expect(error.code).toBe('WB_STALE_SAVE');
    expect(error.position).toEqual({ line: 2, column: 4 });
  });

  it('survives a refusal whose body is not JSON', async () => {
    fakeFetch(() => new Response('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(api.tree()).rejects.toMatchObject({ status: 502, message: 'Bad Gateway' });
  });

  it('reports a refused workbench token once, and not a refusal of the user or of a replaced token', async () => {
    fakeFetch(() => json(401, { detail: 'wrong token', code: 'WB_TOKEN_WRONG' }));
    await expect(api.tree()).rejects.toBeInstanceOf(ApiError);
    expect(unauthorized).toBe(1);

    fakeFetch(() => json(401, { detail: 'bad password', code: 'AUTH_INVALID' }));
    await expect(api.checkSession('Basic eA==')).rejects.toBeInstanceOf(ApiError);
    expect(unauthorized).toBe(1);
  });

  it('tells listeners of a new token and ignores the same one', () => {
    let told = 0;
    const stop = api.onTokenReplaced(() => told++);
    api.replaceToken('tok-1');
    api.replaceToken('tok-2');
    expect(api.token).toBe('tok-2');
    expect(api.eventsUrl()).toBe('/api/workbench/events?token=tok-2');
    stop();
    api.replaceToken('tok-3');
    expect(told).toBe(1);
  });

  it('sends a state reset as a gateway call, without the workbench token', async () => {
    const seen = fakeFetch(() => json(200, { reset: ['orders'] }));
    await api.resetState('orders api');
    expect(seen[0].url).toBe('/api/adaptive/actuator/state/reset?mount=orders%20api');
    expect(new Headers(seen[0].init.headers).has(tokenHeader)).toBe(false);
  });
});

describe('gatewayFetch and withSignIn', () => {
  it("carry the signed-in user's Authorization unless the call has its own", async () => {
    authStore.signIn({ authorization: 'Bearer abc', via: 'token', subject: 'ann' });
    const seen = fakeFetch(() => json(200, {}));
    await gatewayFetch('/api/adaptive/x');
    await gatewayFetch('/api/adaptive/y', { headers: { authorization: 'Basic own' } });
    expect(new Headers(seen[0].init.headers).get('authorization')).toBe('Bearer abc');
    expect(new Headers(seen[1].init.headers).get('authorization')).toBe('Basic own');

    expect(withSignIn({ headers: {} })).toEqual({ headers: { Authorization: 'Bearer abc' }, credentials: 'omit' });
    expect(withSignIn({ headers: { AUTHORIZATION: 'mine' } }).headers).toEqual({ AUTHORIZATION: 'mine' });
  });

  it('report a 401 or 403 to the sign-in state, with the path and the detail', async () => {
    fakeFetch(() => json(403, { detail: 'not yours' }));
    const response = await gatewayFetch('/api/health?secret=1', { method: 'post' });
    expect(response.status).toBe(403);
    expect(authStore.snapshot().refusal).toEqual({
      method: 'POST',
      url: '/api/health',
      status: 403,
      detail: 'not yours',
    });
    // The body is still there for the caller.
    await expect(response.json()).resolves.toEqual({ detail: 'not yours' });
  });

  it('name the status when a refusal has no detail', async () => {
    fakeFetch(() => new Response('nope', { status: 401, statusText: 'Unauthorized' }));
    await gatewayFetch('/api/adaptive/x');
    expect(authStore.snapshot().refusal?.detail).toBe('401 Unauthorized');
  });
});
