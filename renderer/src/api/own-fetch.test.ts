import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenHeader, WorkbenchApi } from './client.js';
import { markOwnCalls, ownFetch } from './own-fetch.js';

describe('ownFetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("marks the workbench's own calls with the token in use at each call, keeping the caller's headers", async () => {
    const seen: Headers[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      seen.push(new Headers(init.headers));
      return new Response('{}');
    });
    const api = new WorkbenchApi('first');
    markOwnCalls(api);
    await ownFetch('/api/v1/query/sql', { headers: { accept: 'application/json' } });
    api.replaceToken('second');
    await ownFetch('/api/health');
    expect(seen.map((h) => h.get(tokenHeader))).toEqual(['first', 'second']);
    expect(seen[0].get('accept')).toBe('application/json');
  });
});
