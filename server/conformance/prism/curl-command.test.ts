import { describe, expect, it } from 'vitest';
import { parseCurlCommand, pathAndQueryOf, shellWords } from './curl-command.js';

describe('shellWords', () => {
  it('splits on white space and honours single quotes, double quotes and backslashes', () => {
    expect(shellWords(`curl -H 'a: b c' -H "x: \\"y\\"" plain\\ word`)).toEqual([
      'curl',
      '-H',
      'a: b c',
      '-H',
      'x: "y"',
      'plain word',
    ]);
  });
  it('keeps $ and & literal inside quotes', () => {
    expect(shellWords(`curl --data "reserved=:/?#[]@!$&'()*+,;"`)).toEqual([
      'curl',
      '--data',
      "reserved=:/?#[]@!$&'()*+,;",
    ]);
  });
  it('stops at an unquoted &, ; or | as the shell Prism runs the command in does', () => {
    expect(shellWords('curl -i http://h/recipes?offset=1&limit=123')).toEqual([
      'curl',
      '-i',
      'http://h/recipes?offset=1',
    ]);
    expect(shellWords('curl http://h/a; rm -rf /')).toEqual(['curl', 'http://h/a']);
  });
  it('rejects an unterminated quote', () => {
    expect(() => shellWords(`curl -H 'open`)).toThrow(/unterminated/);
  });
});

describe('parseCurlCommand', () => {
  it('sends curl defaults: GET, accept */*, a user agent', () => {
    const request = parseCurlCommand('curl -i http://localhost:4010/todos');
    expect(request).toMatchObject({ method: 'GET', pathAndQuery: '/todos', headersOnly: false, body: undefined });
    expect(request.headers.accept).toBe('*/*');
  });
  it('reads clustered short options with an attached argument (-sIXGET)', () => {
    const request = parseCurlCommand('curl -sIXGET -H "x-age: old" http://127.0.0.1:4010/pet');
    expect(request).toMatchObject({ method: 'GET', headersOnly: true, pathAndQuery: '/pet' });
    expect(request.headers['x-age']).toBe('old');
  });
  it('--head without -X sends HEAD', () => {
    expect(parseCurlCommand('curl --head http://localhost:4010/todos').method).toBe('HEAD');
  });
  it('an empty header value removes the header curl would send', () => {
    expect(parseCurlCommand('curl -i -H "Accept:" http://localhost:4010/path').headers).not.toHaveProperty('accept');
  });
  it('-d posts form data unless a method and content type are given', () => {
    const form = parseCurlCommand('curl http://h/path --data "id=123&status=open"');
    expect(form).toMatchObject({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.body?.toString()).toBe('id=123&status=open');
    const json = parseCurlCommand(`curl -i -X PUT http://h/ -H 'content-type: application/json' -d '{}'`);
    expect(json).toMatchObject({ method: 'PUT', pathAndQuery: '/', headers: { 'content-type': 'application/json' } });
  });
  it('-F builds a multipart body and adds the boundary to a bare multipart content type', () => {
    const request = parseCurlCommand(
      'curl -X POST http://h/path -H "Content-Type: multipart/form-data" -F "id=123" -F "status=open"',
    );
    const contentType = request.headers['content-type'];
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const boundary = contentType.split('boundary=')[1];
    const body = request.body!.toString();
    expect(body).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n123\r\n`);
    expect(body.endsWith(`--${boundary}--\r\n`)).toBe(true);
  });
  it('--cookie and --header long options', () => {
    expect(parseCurlCommand('curl -i http://h/todos --cookie "SESSIONID=abc123"').headers.cookie).toBe(
      'SESSIONID=abc123',
    );
    expect(parseCurlCommand("curl -i http://h/ping --header 'Authorization: Basic MTpk'").headers.authorization).toBe(
      'Basic MTpk',
    );
  });
  it('refuses what it cannot translate instead of guessing', () => {
    expect(() => parseCurlCommand('curl -d @body.json http://h/p')).toThrow(/not supported/);
    expect(() => parseCurlCommand('curl --compressed http://h/p')).toThrow(/not supported/);
    expect(() => parseCurlCommand('wget http://h/p')).toThrow(/not a curl command/);
    expect(() => parseCurlCommand('curl -i')).toThrow(/no URL/);
  });
});

describe('pathAndQueryOf', () => {
  it('keeps percent-encoding and the query, drops the fragment, defaults to /', () => {
    expect(pathAndQueryOf('http://localhost:4010/test%20path%20%3E?x=1#frag')).toBe('/test%20path%20%3E?x=1');
    expect(pathAndQueryOf('http://localhost:4010')).toBe('/');
    expect(pathAndQueryOf('http://localhost:4010?a=1')).toBe('/?a=1');
    expect(pathAndQueryOf('localhost:4010/pet/a:run')).toBe('/pet/a:run');
  });
});
