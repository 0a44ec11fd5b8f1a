import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { OperationSpec } from '../model/spec-types.js';
import { ExchangeRecorder } from './recordings.js';

const operation: OperationSpec = {
  method: 'GET',
  path: '/items/{id}',
  pointer: '/paths/~1items~1{id}/get',
  parameters: [],
  responses: [
    { key: '200', headers: {}, mediaTypes: [{ mediaType: 'application/json', example: undefined, named: {} }] },
    { key: '4XX', headers: {}, mediaTypes: [{ mediaType: 'application/*', example: undefined, named: {} }] },
    { key: '204', headers: {}, mediaTypes: [] },
  ],
};
const spec = { file: 'shop.openapi.yaml', mount: 'shop' };
const request = (url: string) => ({ url }) as FastifyRequest;
const answer = (status: number, body: string, contentType = 'application/json; charset=utf-8') => ({
  status,
  headers: { 'content-type': contentType },
  body: Buffer.from(body),
});

describe('ExchangeRecorder', () => {
  it('keeps the last answers per mount, dropping the oldest beyond the count', () => {
    const recorder = new ExchangeRecorder({ perMount: 3, bytesPerMount: 1_000_000, maxBodyBytes: 1000 });
    for (let i = 1; i <= 5; i++) recorder.offer(spec, operation, request(`/items/${i}`), answer(200, `{"id":${i}}`), 0);
    recorder.offer({ ...spec, mount: 'other' }, operation, request('/items/9'), answer(200, '{}'), 0);
    expect(recorder.list('shop').map((e) => e.url)).toEqual(['/items/5', '/items/4', '/items/3']);
    expect(recorder.list('other')).toHaveLength(1);
    expect(recorder.get('shop', recorder.list('shop')[0].id)?.body.toString()).toBe('{"id":5}');
    expect(recorder.get('shop', 1)).toBeUndefined();
  });

  it('keeps at most the byte budget per mount and no body over the single limit', () => {
    const recorder = new ExchangeRecorder({ perMount: 50, bytesPerMount: 250, maxBodyBytes: 120 });
    const body = (n: number) => `"${'x'.repeat(n - 2)}"`;
    expect(recorder.offer(spec, operation, request('/items/big'), answer(200, body(121)), 0)).toBe(false);
    for (let i = 1; i <= 4; i++) recorder.offer(spec, operation, request(`/items/${i}`), answer(200, body(100)), 0);
    const kept = recorder.list('shop');
    expect(kept.map((e) => e.url)).toEqual(['/items/4', '/items/3']);
    expect(kept.reduce((sum, e) => sum + e.size, 0)).toBeLessThanOrEqual(250);
  });

  it('keeps only answers of a declared response and media type that have a body', () => {
    const recorder = new ExchangeRecorder();
    const offer = (status: number, body: string, type?: string) =>
      recorder.offer(spec, operation, request('/items/1'), answer(status, body, type), 0);
    expect(offer(500, '{}')).toBe(false); // no 5XX or default declared
    expect(offer(200, '<p/>', 'text/html')).toBe(false); // media type not declared
    expect(offer(204, '')).toBe(false);
    expect(offer(200, '')).toBe(false);
    expect(offer(404, '{"e":1}', 'application/problem+json')).toBe(true); // 4XX, application/*
    expect(recorder.list('shop')[0]).toMatchObject({ response: '4XX', mediaType: 'application/*', status: 404 });
  });
});
