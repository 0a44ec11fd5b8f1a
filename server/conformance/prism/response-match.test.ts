import { describe, expect, it } from 'vitest';
import { parseHttpResponse } from './http-response.js';
import { compareResponse, withoutUtf8Charset } from './response-match.js';

const expected = (text: string) => parseHttpResponse(text);
const actual = (status: number, headers: Record<string, string>, body: string) => ({ status, headers, body });

describe('parseHttpResponse', () => {
  it('reads status, lower-cased headers and the body, ignoring the reason phrase', () => {
    expect(expected('HTTP/1.1 204 OK\nContent-Type: application/json\r\n\r\n{"a":1}\n\n')).toEqual({
      status: 204,
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
  });
  it('rejects a text without a status line', () => {
    expect(() => parseHttpResponse('200 OK')).toThrow(/status line/);
  });
});

describe('compareResponse', () => {
  it('matches the same status, header and exact body', () => {
    expect(
      compareResponse(
        expected('HTTP/1.1 200 OK\ncontent-type: application/json\n\n"hello"'),
        actual(200, { 'content-type': 'application/json', date: 'x' }, '"hello"'),
        'expect',
      ),
    ).toEqual([]);
  });
  it('reports status, missing and different headers, and body differences', () => {
    const problems = compareResponse(
      expected('HTTP/1.1 200 OK\ncontent-type: text/plain\nnonce: abc\n\nhello'),
      actual(201, { 'content-type': 'text/html' }, 'bye'),
      'expect',
    );
    expect(problems).toEqual([
      'status 201, expected 200',
      'header content-type: "text/html", expected "text/plain"',
      'header nonce missing, expected "abc"',
      'body "bye", expected "hello"',
    ]);
  });
  it('an expected empty body requires an empty body', () => {
    expect(compareResponse(expected('HTTP/1.1 200 OK'), actual(200, {}, '{}'), 'expect')).toEqual([
      'body "{}", expected ""',
    ]);
  });
  it('accepts a charset=utf-8 parameter on the content type, not other differences', () => {
    expect(withoutUtf8Charset('application/json; charset=utf-8')).toBe('application/json');
    expect(
      compareResponse(
        expected('HTTP/1.1 200 OK\ncontent-type: application/json\n\n1'),
        actual(200, { 'content-type': 'application/json; charset=utf-8' }, '1'),
        'expect',
      ),
    ).toEqual([]);
    expect(
      compareResponse(
        expected('HTTP/1.1 200 OK\ncontent-type: application/json\n\n1'),
        actual(200, { 'content-type': 'application/json; version=2' }, '1'),
        'expect',
      ),
    ).toHaveLength(1);
  });
  it('compares XML by element structure, ignoring values', () => {
    const xml = expected('HTTP/1.1 200 OK\n\n<project><foo>1</foo><bar>2</bar></project>');
    expect(
      compareResponse(xml, actual(200, {}, '<?xml version="1.0"?><project><foo>9</foo><bar/></project>'), 'expect'),
    ).toEqual([]);
    expect(compareResponse(xml, actual(200, {}, '<project><foo>1</foo></project>'), 'expect')).toHaveLength(1);
    expect(compareResponse(xml, actual(200, {}, '{"foo":1,"bar":2}'), 'expect')).toHaveLength(1);
  });
  it('expect-loose ignores the body; expect-keysOnly checks top-level keys in order', () => {
    const json = expected('HTTP/1.1 200 OK\n\n{"a":1,"b":2}');
    expect(compareResponse(json, actual(200, {}, 'anything'), 'expect-loose')).toEqual([]);
    expect(compareResponse(json, actual(200, {}, '{"a":5,"x":0,"b":6}'), 'expect-keysOnly')).toEqual([]);
    expect(compareResponse(json, actual(200, {}, '{"b":5,"a":6}'), 'expect-keysOnly')).toHaveLength(1);
    expect(compareResponse(json, actual(200, {}, 'not json'), 'expect-keysOnly')).toHaveLength(1);
  });
});
