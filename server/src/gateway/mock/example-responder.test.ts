import { describe, expect, it } from 'vitest';
import { echoMerge, parsePrefer, selectResponse } from './example-responder.js';
import type { OperationSpec, ResponseSpec } from '../model/spec-types.js';

const response = (key: string): ResponseSpec => ({ key, mediaTypes: [], headers: {} });
const operation = (...keys: string[]): OperationSpec => ({
  method: 'GET',
  path: '/x',
  pointer: '#/paths/~1x/get',
  parameters: [],
  responses: keys.map(response),
});

describe('selectResponse', () => {
  it('picks the lowest declared 2xx', () => {
    expect(selectResponse(operation('404', '202', '201'), {}).status).toBe(201);
  });
  it('falls back to 2XX, then default, as 200', () => {
    expect(selectResponse(operation('404', '2XX'), {})).toMatchObject({ status: 200, response: { key: '2XX' } });
    expect(selectResponse(operation('404', 'DEFAULT'), {})).toMatchObject({
      status: 200,
      response: { key: 'DEFAULT' },
    });
  });
  it('serves the lowest declared code when there is no success response', () => {
    expect(selectResponse(operation('500', '404'), {}).status).toBe(404);
  });
  it('honours Prefer: code= exactly, by class, or through default', () => {
    expect(selectResponse(operation('200', '404'), { code: 404 })).toMatchObject({
      status: 404,
      response: { key: '404' },
    });
    expect(selectResponse(operation('200', '4XX'), { code: 418 })).toMatchObject({
      status: 418,
      response: { key: '4XX' },
    });
    expect(selectResponse(operation('200', 'DEFAULT'), { code: 503 })).toMatchObject({
      status: 503,
      response: { key: 'DEFAULT' },
    });
  });
  it('refuses a preferred code the spec does not declare with a 404 naming the declared ones, as Prism does', () => {
    expect(() => selectResponse(operation('200', '4XX'), { code: 500 })).toThrow(
      expect.objectContaining({
        status: 404,
        detail: expect.stringMatching(/does not declare \(declared: 200, 4xx\)$/),
      }),
    );
  });
  it('answers 200 without a body for an operation without responses', () => {
    expect(selectResponse(operation(), {})).toEqual({ status: 200 });
  });
});

describe('parsePrefer', () => {
  it('reads code and example, separated by commas or semicolons, quoted or not', () => {
    expect(parsePrefer('code=404, example=missing')).toEqual({ code: 404, example: 'missing' });
    expect(parsePrefer('example="two words"; code=201')).toEqual({ code: 201, example: 'two words' });
  });
  it('reads dynamic, seed and delay, and ignores unknown preferences (RFC 7240)', () => {
    expect(parsePrefer('dynamic=true, seed=7, delay=250, return=minimal, respond-async')).toEqual({
      dynamic: true,
      seed: 7,
      delay: 250,
    });
    expect(parsePrefer(undefined)).toEqual({});
  });
  it('refuses a known preference with a bad value with a 400 naming it and what it accepts', () => {
    expect(() => parsePrefer('code=99')).toThrow(
      expect.objectContaining({
        status: 400,
        detail: 'Prefer: code=99 is not valid: expected a status code from 100 to 599',
      }),
    );
    expect(() => parsePrefer('dynamic=yes')).toThrow(/expected true or false/);
    expect(() => parsePrefer('seed=-1')).toThrow(/expected an integer/);
    expect(() => parsePrefer('delay=1.5s')).toThrow(/milliseconds/);
    expect(() => parsePrefer('example=')).toThrow(/example name/);
  });
});

describe('echoMerge', () => {
  it('merges the request over the example object; request fields win', () => {
    expect(echoMerge({ id: 1, title: 'a', available: true }, { title: 'b', extra: 2 })).toEqual({
      id: 1,
      title: 'b',
      available: true,
      extra: 2,
    });
  });
  it('keeps a non-object example and echoes a body when there is no example', () => {
    expect(echoMerge([1, 2], { a: 1 })).toEqual([1, 2]);
    expect(echoMerge(undefined, { a: 1 })).toEqual({ a: 1 });
    expect(echoMerge({ a: 1 }, 'text')).toEqual({ a: 1 });
  });
  it('does not let __proto__ in a request pollute prototypes', () => {
    const merged = echoMerge({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
  });
});
