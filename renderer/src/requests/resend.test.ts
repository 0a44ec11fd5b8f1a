import { describe, expect, it } from 'vitest';
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
