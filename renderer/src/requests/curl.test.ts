// This test runs the commands through a real POSIX shell, in Node.
/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { WorkbenchRequest } from '../../../server/src/contract/index.js';
import { shellQuote, toCurl } from './curl.js';

function captured(change: Partial<WorkbenchRequest['request']> & { method?: string; url?: string }): WorkbenchRequest {
  const { method = 'POST', url = '/api/adaptive/library-api/books', ...request } = change;
  return {
    id: 1,
    requestId: 'req-1',
    origin: 'external',
    time: 0,
    method,
    url,
    status: 201,
    durationMs: 1,
    source: 'handler',
    request: { headers: {}, ...request },
    response: { headers: {} },
  };
}

/**
 * The words a POSIX shell hands to curl when it runs `command`, and what curl would read on standard
 * input: `curl` is a shell function here that prints each argument, NUL-terminated, then its input.
 */
function shellWords(command: string): { words: string[]; stdin: string } {
  const out = execFileSync(
    'sh',
    ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; printf '\\001'; cat; }; ${command}`],
    { input: '', encoding: 'utf8' },
  );
  const [args, stdin] = [out.slice(0, out.indexOf('\u0001')), out.slice(out.indexOf('\u0001') + 1)];
  return { words: args.split('\0').slice(0, -1), stdin };
}

describe('copy as curl', () => {
  it('gives the shell exactly the method, URL, headers and body, whatever they hold', () => {
    const body = [
      `{"title": "It's \\"quoted\\"", "note": "line one\nline two", "emoji": "📚 Ünïcødé",`,
      ` "sh": "$(rm -rf ~) \`x\` $HOME !!"}`,
    ].join('');
    const { command, redacted } = toCurl(
      captured({
        headers: {
          'content-type': 'application/json',
          'x-title': 'O\'Brien "Jr" — ✓',
          'x-workbench-token': '[redacted]',
          'x-workbench-try-out': 'swagger-ui',
          authorization: '[redacted]',
          host: '127.0.0.1:8080',
          'content-length': '99',
          'sec-fetch-mode': 'cors',
          'Sec-CH-UA-Platform': '"Linux"',
        },
        body,
        url: "/api/adaptive/library-api/books?q=a'b&x=$(id)",
      }),
      'http://127.0.0.1:8080',
    );
    expect(shellWords(command)).toEqual({
      words: [
        '-X',
        'POST',
        "http://127.0.0.1:8080/api/adaptive/library-api/books?q=a'b&x=$(id)",
        '-H',
        'content-type: application/json',
        '-H',
        'x-title: O\'Brien "Jr" — ✓',
        '--data-raw',
        body,
      ],
      stdin: '',
    });
    // The workbench's marks go; the credentials the capture did not keep are named, not sent as "[redacted]".
    expect(command).not.toContain('x-workbench');
    expect(command).not.toContain('[redacted]');
    expect(redacted).toEqual(['authorization']);
  });

  it('leaves a plain GET as short as it can be', () => {
    const { command, truncatedBody } = toCurl(captured({ method: 'GET', url: '/api/health' }), 'http://h:1');
    expect(command).toBe("curl 'http://h:1/api/health'");
    expect(truncatedBody).toBe(false);
  });

  it('sends a body with NUL bytes and backslashes through standard input, unchanged', () => {
    const body = 'a\0b\\0c\0' + '7\\n%s%%';
    const { command } = toCurl(captured({ body }), 'http://h:1');
    const { words, stdin } = shellWords(command);
    expect(words).toEqual(['-X', 'POST', 'http://h:1/api/adaptive/library-api/books', '--data-binary', '@-']);
    expect(stdin).toBe(body);
  });

  it('says when the body it copies was cut by the capture', () => {
    expect(toCurl(captured({ body: 'x', truncated: true, size: 1e6 }), 'http://h:1').truncatedBody).toBe(true);
  });

  it('quotes single quotes, and nothing else needs it', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('')).toBe("''");
    for (const hostile of ["'", "''", "\\'", "\n'\n", '$(x)`y`', '\u2028\u00a0\ud83d\ude00'])
      expect(shellWords(`curl ${shellQuote(hostile)}`).words).toEqual([hostile]);
  });
});
