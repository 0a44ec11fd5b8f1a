import { afterEach, describe, expect, it, vi } from 'vitest';
import { tryOutHeader } from '../api/own-fetch.js';
import { headerLines, parseHeaderLines, resend } from './resend.js';

describe('edit and resend', () => {
  it('reads back the header lines it writes', () => {
    const headers = { 'content-type': 'application/json', 'x-note': 'a: b — ✓' };
    expect(parseHeaderLines(headerLines(headers))).toEqual(headers);
    expect(parseHeaderLines('\n  \nX-Upper:  spaced value  \n')).toEqual({ 'x-upper': 'spaced value' });
  });

  it('names the line that is not a header', () => {
    expect(() => parseHeaderLines('a: 1\nno colon here')).toThrow('Line 2 is not "name: value"');
    expect(() => parseHeaderLines(': empty name')).toThrow('Line 1');
    expect(() => parseHeaderLines('bad name: x')).toThrow('Line 1');
    expect(() => parseHeaderLines('x-ok: 1\ninjected\r\nheader: 2')).toThrow('Line 2');
  });

  it('sends only to this server', async () => {
    for (const url of ['http://elsewhere.example/x', '//elsewhere.example/x', 'api/x', ''])
      await expect(resend({ method: 'GET', url, headers: {}, body: '' })).rejects.toThrow('must start with one /');
  });
});

describe('resend', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** Stubs `fetch` with one answer and returns what it was asked. */
  function answer(response: Response): RequestInit[] {
    const seen: RequestInit[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      seen.push(init);
      return response;
    });
    return seen;
  }

  it('sends a try-out with the edited method, headers and body, and reads the answer', async () => {
    const seen = answer(new Response('{"ok":true}', { status: 201, statusText: 'Created', headers: { 'x-a': '1' } }));
    const result = await resend({ method: ' post ', url: '/api/adaptive/x', headers: { 'x-b': '2' }, body: '{}' });
    expect(seen[0]).toMatchObject({ method: 'POST', body: '{}', cache: 'no-store' });
    expect(seen[0].headers).toEqual({ 'x-b': '2', [tryOutHeader]: 'replay' });
    expect(result).toMatchObject({ status: 201, statusText: 'Created', body: '{"ok":true}' });
    expect(result.headers['x-a']).toBe('1');
  });

  it('sends no body with GET or HEAD, or when the body is empty', async () => {
    const seen = answer(new Response(''));
    await resend({ method: 'get', url: '/x', headers: {}, body: 'ignored' });
    expect(seen[0].body).toBeUndefined();
    const again = answer(new Response(''));
    await resend({ method: 'DELETE', url: '/x', headers: {}, body: '' });
    expect(again[0].body).toBeUndefined();
  });
});
