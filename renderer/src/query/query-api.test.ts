import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client.js';
import { AmbiguousQuestionError, queryApi } from './query-api.js';

/** `fetch` answering every call with `status` and the JSON `body`, recording the requests. */
function answer(status: number, body: unknown): { url: string; init: RequestInit }[] {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

describe('questions and picks', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the candidates of a 422 NL_AMBIGUOUS, and only of that code', async () => {
    const detail = 'Did you mean shipments.dest_city or warehouses.city?';
    answer(422, { detail, code: 'NL_AMBIGUOUS', candidates: ['shipments.dest_city', 'warehouses.city'] });
    const error = await queryApi.ask('How many are in Malmö?').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmbiguousQuestionError);
    expect(error).toMatchObject({
      status: 422,
      message: detail,
      candidates: ['shipments.dest_city', 'warehouses.city'],
    });

    answer(422, { detail: 'not understood', code: 'NL_NOT_UNDERSTOOD', candidates: ['x.y'] });
    const other = await queryApi.ask('?').catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ApiError);
    expect(other).not.toBeInstanceOf(AmbiguousQuestionError);
    // A malformed body is an ordinary error with the status as its detail.
    answer(422, { code: 'NL_AMBIGUOUS', candidates: 'warehouses.city' });
    expect(await queryApi.ask('?').catch((e: unknown) => e)).not.toBeInstanceOf(AmbiguousQuestionError);
  });

  it('sends prefer only with a pick', async () => {
    const calls = answer(200, { answer: '1', generated_query: 'SELECT 1', results: [] });
    await queryApi.ask('How many are in Malmö?');
    await queryApi.ask('How many are in Malmö?', ['warehouses.city']);
    expect(calls.map((c) => JSON.parse(String(c.init.body)) as unknown)).toEqual([
      { question: 'How many are in Malmö?' },
      { question: 'How many are in Malmö?', prefer: ['warehouses.city'] },
    ]);
  });
});
