/** Translates the one curl command of a Prism case into the HTTP request it sends. */

/** The request a curl command sends. */
export interface CurlRequest {
  method: string;
  /** Path and query exactly as written in the URL (percent-encoding kept), e.g. `/todos?x=1`. */
  pathAndQuery: string;
  /** Header names in lower case. curl's defaults (`accept: *\/*`, `user-agent`) are included. */
  headers: Record<string, string>;
  body?: Buffer;
  /** `-I`/`--head`: curl prints the headers only, so the body is not part of the output. */
  headersOnly: boolean;
}

const shellOperators = new Set(['&', ';', '|']);

/**
 * Splits a command line into words like a POSIX shell (quotes and backslashes, no expansion) and
 * stops at the first unquoted `&`, `;` or `|`: Prism's harness runs the command through a shell, so
 * `curl http://h/p?a=1&b=2` requests `/p?a=1` and the rest becomes a second command.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const text = command.replace(/\\\r?\n/g, '');
  while (i < text.length) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) throw new Error('unterminated single quote in the curl command');
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1])) i++;
        word += text[i++];
      }
      if (i >= text.length) throw new Error('unterminated double quote in the curl command');
      inWord = true;
      i++;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(c) || shellOperators.has(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      if (shellOperators.has(c)) return words;
      i++;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Short options that take an argument (the rest of the cluster or the next word). */
const shortWithArgument = new Set(['X', 'H', 'd', 'F', 'b', 'A', 'e', 'u', 'o']);
const longWithArgument = new Map([
  ['--request', 'X'],
  ['--header', 'H'],
  ['--data', 'd'],
  ['--data-raw', 'd'],
  ['--data-binary', 'd'],
  ['--data-ascii', 'd'],
  ['--form', 'F'],
  ['--cookie', 'b'],
  ['--user-agent', 'A'],
  ['--referer', 'e'],
  ['--user', 'u'],
  ['--output', 'o'],
]);
const longFlags = new Map([
  ['--include', 'i'],
  ['--silent', 's'],
  ['--head', 'I'],
  ['--verbose', 'v'],
  ['--show-error', 'S'],
  ['--location', 'L'],
]);
const ignoredShortFlags = new Set(['i', 's', 'S', 'v', 'L']);

interface ParsedOptions {
  method?: string;
  url?: string;
  headers: Array<[string, string | null]>;
  data: string[];
  form: Array<[string, string]>;
  headOnly: boolean;
}

function applyOption(options: ParsedOptions, flag: string, value: string | undefined): void {
  switch (flag) {
    case 'X':
      options.method = value!;
      break;
    case 'H': {
      const header = value!;
      const colon = header.indexOf(':');
      const semicolon = header.indexOf(';');
      if (colon > 0) {
        const content = header.slice(colon + 1).trim();
        // `Name:` with nothing after it removes the header curl would otherwise send.
        options.headers.push([header.slice(0, colon).trim(), content === '' ? null : content]);
      } else if (semicolon > 0 && header.slice(semicolon + 1).trim() === '') {
        options.headers.push([header.slice(0, semicolon).trim(), '']);
      } else {
        throw new Error(`header "${header}" has no name`);
      }
      break;
    }
    case 'd':
      if (value!.startsWith('@')) throw new Error('-d @file is not supported by the conformance runner');
      options.data.push(value!);
      break;
    case 'F': {
      const eq = value!.indexOf('=');
      if (eq <= 0) throw new Error(`form field "${value}" is not name=value`);
      if (value!.slice(eq + 1).startsWith('@') || value!.slice(eq + 1).startsWith('<'))
        throw new Error('file uploads (-F name=@file) are not supported');
      options.form.push([value!.slice(0, eq), value!.slice(eq + 1)]);
      break;
    }
    case 'b':
      // Without `=` curl reads cookies from a file; only literal cookies are meaningful here.
      if (!value!.includes('=')) throw new Error('-b <cookie file> is not supported');
      options.headers.push(['Cookie', value!]);
      break;
    case 'A':
      options.headers.push(['User-Agent', value!]);
      break;
    case 'e':
      options.headers.push(['Referer', value!]);
      break;
    case 'u':
      options.headers.push(['Authorization', `Basic ${Buffer.from(value!).toString('base64')}`]);
      break;
    case 'I':
      options.headOnly = true;
      break;
    case 'o':
      break;
    default:
      if (!ignoredShortFlags.has(flag)) throw new Error(`curl option -${flag} is not supported`);
  }
}

function multipartBody(fields: Array<[string, string]>, boundary: string): Buffer {
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
}

/** The path and query of a URL as written: `http://localhost:4010/a%20b?x=1#f` -> `/a%20b?x=1`. */
export function pathAndQueryOf(url: string): string {
  const match = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/?#]*([^#]*)/i.exec(url);
  const rest = match?.[1] ?? '';
  if (rest === '') return '/';
  return rest.startsWith('?') ? `/${rest}` : rest;
}

/**
 * Parses a curl command (`curl -i -X POST http://localhost:4010/p -H 'a: b' -d x`) into the request
 * curl would send: method, path and query, headers including curl's defaults, and body
 * (`-d` as `application/x-www-form-urlencoded`, `-F` as `multipart/form-data`).
 */
export function parseCurlCommand(command: string): CurlRequest {
  const words = shellWords(command);
  if (words[0] !== 'curl') throw new Error(`not a curl command: ${command}`);
  const options: ParsedOptions = { headers: [], data: [], form: [], headOnly: false };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word.startsWith('--')) {
      const [name, inline] = word.includes('=')
        ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
        : [word, undefined];
      const withArgument = longWithArgument.get(name);
      if (withArgument) applyOption(options, withArgument, inline ?? words[++i]);
      else if (longFlags.has(name)) applyOption(options, longFlags.get(name)!, undefined);
      else throw new Error(`curl option ${name} is not supported`);
    } else if (word.startsWith('-') && word.length > 1) {
      for (let j = 1; j < word.length; j++) {
        const flag = word[j];
        if (shortWithArgument.has(flag)) {
          const rest = word.slice(j + 1);
          applyOption(options, flag, rest !== '' ? rest : words[++i]);
          break;
        }
        applyOption(options, flag, undefined);
      }
    } else {
      if (options.url !== undefined) throw new Error('more than one URL in the curl command');
      options.url = word;
    }
  }
  if (options.url === undefined) throw new Error('the curl command has no URL');

  const headers: Record<string, string> = { 'user-agent': 'curl/8.5.0', accept: '*/*' };
  let body: Buffer | undefined;
  let impliedMethod = options.headOnly ? 'HEAD' : 'GET';
  if (options.form.length > 0) {
    const boundary = '------------------------conformance';
    body = multipartBody(options.form, boundary);
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    impliedMethod = 'POST';
  } else if (options.data.length > 0) {
    body = Buffer.from(options.data.join('&'));
    headers['content-type'] = 'application/x-www-form-urlencoded';
    impliedMethod = 'POST';
  }
  for (const [name, value] of options.headers) {
    const key = name.toLowerCase();
    if (value === null) delete headers[key];
    // curl adds the boundary to a hand-written `Content-Type: multipart/form-data`.
    else if (key === 'content-type' && options.form.length > 0 && /^multipart\/form-data\s*$/i.test(value)) continue;
    else headers[key] = value;
  }
  return {
    method: (options.method ?? impliedMethod).toUpperCase(),
    pathAndQuery: pathAndQueryOf(options.url),
    headers,
    body,
    headersOnly: options.headOnly,
  };
}
