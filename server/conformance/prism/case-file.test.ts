import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseCaseFile } from './case-file.js';
import { isDynamic, isPortable } from './portable-cases.js';
import { caseSlug, mountSpec } from './prism-runner.js';

const caseText = `====test====
Hello
====spec====
openapi: 3.0.2
servers:
  - url: http://example.com/v1
paths:
  /todos: # the list
    get:
      responses:
        200:
          description: ok
====server====
mock -p 4010 \${document}
====command====
curl -i http://localhost:4010/todos
====expect-loose====
HTTP/1.1 200 OK
`;

describe('parseCaseFile', () => {
  it('splits the sections like the Prism harness', () => {
    const parsed = parseCaseFile(caseText);
    expect(parsed).toMatchObject({
      test: 'Hello',
      server: 'mock -p 4010 ${document}',
      command: 'curl -i http://localhost:4010/todos',
      expectKind: 'expect-loose',
    });
    expect(parsed.spec).toContain('/todos:');
  });
  it('refuses a case without spec, command or expectation', () => {
    expect(() => parseCaseFile('====spec====\nopenapi: 3.0.0\n====command====\ncurl x\n')).toThrow(/expect/);
    expect(() => parseCaseFile('====command====\ncurl x\n====expect====\nHTTP/1.1 200 OK\n')).toThrow(/spec/);
  });
});

describe('mountSpec', () => {
  it('replaces servers with the gateway mount and keeps the rest of the document', () => {
    const { text, value } = mountSpec(parseCaseFile(caseText).spec, 'my-case');
    expect((value as { servers: unknown }).servers).toEqual([{ url: '/api/adaptive/my-case' }]);
    expect(text).toContain('# the list');
    expect(parse(text).paths['/todos'].get.responses['200'].description).toBe('ok');
  });
  it('leaves a text that is not a mapping to the loader', () => {
    expect(mountSpec('- a\n- b\n', 'x')).toEqual({ text: '- a\n- b\n', value: undefined });
    expect(mountSpec('a: [unclosed', 'x').value).toBeUndefined();
  });
  it('derives a mount-safe slug from the case path', () => {
    expect(caseSlug('content-negotiation/E2E AC-1.oas3.txt')).toBe('content-negotiation--E2E_AC-1.oas3');
  });
});

describe('isPortable', () => {
  const entry = { f: 'a.txt', fam: 'oas3.0', flags: [], prismy: [], st: '200', kind: 'expect', cat: 'a' };
  it('keeps plain OpenAPI 3 mock cases only', () => {
    expect(isPortable(entry, 'mock -p 4010 ${document}')).toBe(true);
    expect(isPortable({ ...entry, fam: 'oas3.1' })).toBe(true);
    expect(isPortable({ ...entry, fam: 'oas2' })).toBe(false);
    expect(isPortable({ ...entry, fam: 'postman' })).toBe(false);
    expect(isPortable({ ...entry, flags: ['dynamic', 'jsf'] })).toBe(false);
    expect(isPortable({ ...entry, prismy: ['prism-error-type'] })).toBe(false);
    expect(isPortable(entry, 'mock -p 4010 --errors ${document}')).toBe(false);
    expect(isPortable(entry, 'mock -p 4010 -d --json-schema-faker-fillProperties=false ${document}')).toBe(false);
  });
  it('keeps dynamic-example cases and Prefer cases, whose semantics the gateway shares', () => {
    expect(isPortable({ ...entry, flags: ['dynamic'], prismy: ['Prefer'] }, 'mock -d -p 4010 ${document}')).toBe(true);
    expect(isPortable(entry, 'mock -p 4010 -d ${document}')).toBe(true);
    expect(isDynamic('mock -p 4010 -d ${document}')).toBe(true);
    expect(isDynamic('mock -p 4010 ${document}')).toBe(false);
  });
});
