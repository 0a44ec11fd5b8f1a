import { describe, expect, it } from 'vitest';
import { evaluate, httpStatusOf, worstStatus } from './aggregate.js';
import type { Contributor } from './health-types.js';

describe('worstStatus', () => {
  it('orders DOWN > OUT_OF_SERVICE > UP > UNKNOWN', () => {
    expect(worstStatus(['UP', 'DOWN', 'OUT_OF_SERVICE'])).toBe('DOWN');
    expect(worstStatus(['UP', 'OUT_OF_SERVICE', 'UNKNOWN'])).toBe('OUT_OF_SERVICE');
    expect(worstStatus(['UNKNOWN', 'UP'])).toBe('UP');
    expect(worstStatus(['UNKNOWN'])).toBe('UNKNOWN');
    expect(worstStatus([])).toBe('UNKNOWN');
  });
  it('maps DOWN and OUT_OF_SERVICE to 503', () => {
    expect(httpStatusOf('DOWN')).toBe(503);
    expect(httpStatusOf('OUT_OF_SERVICE')).toBe(503);
    expect(httpStatusOf('UP')).toBe(200);
    expect(httpStatusOf('UNKNOWN')).toBe(200);
  });
});

describe('evaluate', () => {
  it('nests components and aggregates each level', async () => {
    const tree: Contributor = {
      components: {
        a: {
          components: {
            ok: { check: async () => ({ rows: 3 }) },
            off: { check: async () => ({ status: 'OUT_OF_SERVICE' }) },
          },
        },
        b: { check: async () => undefined },
      },
    };
    const node = await evaluate(tree);
    expect(node.status).toBe('OUT_OF_SERVICE');
    expect(node.components!.a.status).toBe('OUT_OF_SERVICE');
    expect(node.components!.a.components!.ok).toEqual({
      status: 'UP',
      details: { rows: 3, latency_ms: expect.any(Number) },
    });
    expect(node.components!.b.status).toBe('UP');
  });

  it('turns a throwing check into DOWN with the error message', async () => {
    const node = await evaluate({ check: async () => Promise.reject(new Error('connection refused')) });
    expect(node).toEqual({ status: 'DOWN', details: { error: 'connection refused', latency_ms: expect.any(Number) } });
  });

  it('cuts off a check that never answers at its own timeout and aborts it', async () => {
    let aborted = false;
    const never: Contributor = {
      timeoutMs: 50,
      check: (signal) => {
        signal.addEventListener('abort', () => (aborted = true));
        return new Promise(() => undefined);
      },
    };
    const node = await evaluate({ components: { hung: never, fine: { check: async () => undefined } } });
    expect(node.status).toBe('DOWN');
    expect(node.components!.hung.details!.error).toBe('no answer within 50 ms');
    expect(node.components!.fine.status).toBe('UP');
    expect(aborted).toBe(true);
  });

  it('runs every check at the same time', async () => {
    let running = 0;
    let peak = 0;
    const slow: Contributor = {
      check: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 100));
        running--;
      },
    };
    const components = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`c${i}`, slow]));
    const node = await evaluate({ components: { group: { components } } });
    expect(node.status).toBe('UP');
    expect(peak).toBe(30);
  });
});
