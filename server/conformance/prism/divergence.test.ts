import { describe, expect, it } from 'vitest';
import { likelyCause, type FailedCase } from './divergence.js';

const response = (status: number, headers: Record<string, string> = {}, body = '') => ({ status, headers, body });
const failure = (overrides: Partial<FailedCase>): FailedCase => ({
  spec: { paths: { '/a': { get: { responses: {} } } } },
  method: 'GET',
  requestHeaders: { accept: '*/*' },
  requestHasBody: false,
  expected: response(200),
  actual: response(200),
  ...overrides,
});

describe('likelyCause', () => {
  it('names validation answered 400 instead of 422', () => {
    expect(likelyCause(failure({ expected: response(422), actual: response(400) }))).toMatch(
      /^design: the operation declares no 422 or 400 response/,
    );
  });
  it("names the spec's security checked for presence only when the spec declares security", () => {
    const secured = { security: [{ key: [] }], paths: {} };
    expect(likelyCause(failure({ spec: secured, expected: response(401), actual: response(200) }))).toMatch(
      /presence of credentials only/,
    );
    expect(likelyCause(failure({ expected: response(401), actual: response(200) }))).toBeUndefined();
  });
  it('names HEAD and OPTIONS operations of the spec, and HEAD answered as GET', () => {
    expect(
      likelyCause(
        failure({
          spec: { paths: { '/a': { options: {} } } },
          method: 'OPTIONS',
          expected: response(200),
          actual: response(204),
        }),
      ),
    ).toMatch(/^scope: spec operations for OPTIONS/);
    expect(likelyCause(failure({ method: 'HEAD', expected: response(405), actual: response(200) }))).toMatch(
      /^design: HEAD is answered as GET/,
    );
  });
  it('names the JSON preference under Accept */* only when JSON was served instead of another type', () => {
    const expected = response(200, { 'content-type': 'application/xml' }, '<a/>');
    expect(
      likelyCause(failure({ expected, actual: response(200, { 'content-type': 'application/json' }, '"a"') })),
    ).toMatch(/prefers a JSON media type/);
    expect(
      likelyCause(
        failure({
          requestHeaders: { accept: 'application/xml' },
          expected,
          actual: response(200, { 'content-type': 'application/xml' }, '{"a":1}'),
        }),
      ),
    ).toMatch(/^gap: an object example/);
  });
  it('names sampled values when the keys agree, and nothing otherwise', () => {
    expect(
      likelyCause(
        failure({ expected: response(200, {}, '{"a":1,"b":2}'), actual: response(200, {}, '{"a":5,"b":6}') }),
      ),
    ).toMatch(/^sampling/);
    expect(
      likelyCause(failure({ expected: response(200, {}, '{"a":1}'), actual: response(200, {}, '{"b":1}') })),
    ).toBeUndefined();
  });
  it('names optional properties left out of a dynamic answer, in JSON and XML, and nothing for other names', () => {
    const xml = (inner: string) => response(200, { 'content-type': 'application/xml' }, `<xml>${inner}</xml>`);
    const full = xml('<title>a</title><description>b</description><priority>1</priority>');
    expect(likelyCause(failure({ expected: full, actual: xml('<description>c</description>') }))).toMatch(
      /^sampling: a dynamic answer has each optional property half of the time/,
    );
    expect(
      likelyCause(failure({ expected: response(200, {}, '{"a":1,"b":2}'), actual: response(200, {}, '{"b":3}') })),
    ).toMatch(/optional property/);
    expect(likelyCause(failure({ expected: full, actual: xml('<other>c</other>') }))).toBeUndefined();
  });
});
