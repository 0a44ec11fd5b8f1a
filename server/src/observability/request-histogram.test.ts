import { describe, expect, it } from 'vitest';
import { requestHistogram } from './request-histogram.js';

/** The `_count` value of the series of `route` and `status`, or undefined when it has none. */
function countOf(route: string, status: string): number | undefined {
  const { values } = requestHistogram().get();
  return values.find((v) => v.metricName.endsWith('_count') && v.labels.route === route && v.labels.status === status)
    ?.value;
}

describe('request histogram recorders', () => {
  it('count into the series observe() counts into, made on the first count only', () => {
    const route = '/recorder-test/books';
    const count = requestHistogram().recorder('GET', route, 200, 'static');
    requestHistogram().recorder('GET', route, 304, 'static');
    expect(countOf(route, '200')).toBeUndefined();
    count(0.001);
    count(0.002);
    requestHistogram().observe('GET', route, 200, 'static', 0.003);
    expect(countOf(route, '200')).toBe(3);
    expect(countOf(route, '304')).toBeUndefined();
  });
});
