import { describe, expect, it } from 'vitest';
import type { WorkbenchRequest } from '../../../server/src/contract/index.js';
import {
  defaultRequestFilter,
  filterRequests,
  keepRequests,
  methodsOf,
  statusClassOf,
  statusTone,
} from './request-filters.js';

let next = 0;
function request(method: string, url: string, status: number, origin: WorkbenchRequest['origin']): WorkbenchRequest {
  next++;
  return {
    id: next,
    requestId: `req-${next}`,
    origin,
    time: next,
    method,
    url,
    status,
    durationMs: 1,
    source: 'system',
    request: { headers: {} },
    response: { headers: {} },
  };
}

const requests = [
  ...Array.from({ length: 50 }, (_, i) => request('GET', `/api/v1/query/async/${i}/status`, 200, 'workbench')),
  request('POST', '/api/adaptive/library-api/books', 201, 'try-out'),
  request('GET', '/api/adaptive/library-api/books/99', 404, 'external'),
  request('GET', '/api/adaptive/ledger/fail', 500, 'external'),
  request('DELETE', '/api/adaptive/Library-API/books/1', 204, 'external'),
];

describe('request filters', () => {
  it('shows a status in the tone of its class: server error, client error, or fine', () => {
    expect([200, 304, 399, 400, 404, 499, 500, 503].map(statusTone)).toEqual([
      'ok',
      'ok',
      'ok',
      'warning',
      'warning',
      'warning',
      'error',
      'error',
    ]);
  });

  it("hides the workbench's own calls by default, and counts them", () => {
    const { shown, hiddenOwn } = filterRequests(requests, defaultRequestFilter);
    expect(hiddenOwn).toBe(50);
    expect(shown.map((r) => r.origin)).toEqual(['try-out', 'external', 'external', 'external']);
    const all = filterRequests(requests, { ...defaultRequestFilter, showOwn: true });
    expect(all.shown).toHaveLength(54);
    expect(all.hiddenOwn).toBe(0);
  });

  it('filters by path text (any case), status class, method and origin together', () => {
    const only = (change: Partial<typeof defaultRequestFilter>) =>
      filterRequests(requests, { ...defaultRequestFilter, ...change }).shown.map((r) => r.id);
    expect(only({ path: '  LIBRARY-api ' })).toEqual([51, 52, 54]);
    expect(only({ status: '5xx' })).toEqual([53]);
    expect(only({ status: '4xx', method: 'GET' })).toEqual([52]);
    expect(only({ method: 'DELETE', origin: 'try-out' })).toEqual([]);
    expect(only({ origin: 'try-out' })).toEqual([51]);
    expect(only({ origin: 'workbench' })).toEqual([]);
    expect(only({ origin: 'workbench', showOwn: true, path: 'async/7/' })).toEqual([8]);
    // Text that is a regular expression elsewhere is only text here.
    expect(only({ path: '.*' })).toEqual([]);
  });

  it('puts statuses in classes, and odd ones in none', () => {
    expect([200, 204, 301, 404, 499, 500, 599].map(statusClassOf)).toEqual([
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
    for (const odd of [0, 101, 600, -500, Number.NaN]) expect(statusClassOf(odd)).toBeUndefined();
  });

  it('keeps the newest of each kind apart: own polls never push out the others', () => {
    const kept = keepRequests(requests, 3, 2);
    expect(kept.map((r) => r.id)).toEqual([49, 50, 52, 53, 54]);
    // Order is kept, and nothing is kept twice when all fit.
    expect(keepRequests(requests, 100, 100)).toEqual(requests);
    expect(keepRequests(requests, 0, 0)).toEqual([]);
    // 1000 more own calls still leave the four others.
    const flooded = [
      ...requests,
      ...Array.from({ length: 1000 }, () => request('GET', '/api/health', 200, 'workbench')),
    ];
    expect(keepRequests(flooded, 500, 200).filter((r) => r.origin !== 'workbench')).toHaveLength(4);
  });

  it('offers the methods seen, once each', () => {
    expect(methodsOf(requests)).toEqual(['DELETE', 'GET', 'POST']);
  });
});
