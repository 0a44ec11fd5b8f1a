import { describe, expect, it } from 'vitest';
import { describeFault, planFault } from './faults.js';
import { isPlain, mockSettingsOf } from './mock-settings.js';

const workspace = { examples: 'static' as const, maxDelayMs: 1000, security: 'off' as const };
const documentWith = (root: unknown, operation: unknown) => ({
  'x-mock': root,
  paths: { '/a': { get: { 'x-mock': operation } } },
});
const pointer = '#/paths/~1a/get';

describe('mockSettingsOf', () => {
  it('takes the workspace setting, then the spec root x-mock, then the operation x-mock', () => {
    const warnings: string[] = [];
    const settings = mockSettingsOf(
      documentWith({ examples: 'dynamic', delay: 50, errorRate: 0.5 }, { delay: [10, 20], errorStatus: 503 }),
      pointer,
      workspace,
      warnings,
      'GET /a',
    );
    expect(settings).toEqual({ examples: 'dynamic', delay: [10, 20], errorRate: 0.5, errorStatus: 503 });
    expect(warnings).toEqual([]);
    expect(isPlain(mockSettingsOf({}, pointer, workspace, warnings, 'GET /a'))).toBe(true);
  });

  it('reports bad values as warnings and ignores them; caps delays at the maximum', () => {
    const warnings: string[] = [];
    const settings = mockSettingsOf(
      documentWith({ examples: 'random', errorRate: 2 }, { delay: [5000, 9000], errorStatus: 200 }),
      pointer,
      workspace,
      warnings,
      'GET /a',
    );
    expect(settings).toEqual({ examples: 'static', delay: [1000, 1000], errorRate: 0, errorStatus: 500 });
    expect(warnings).toEqual([
      'x-mock: x-mock.examples must be "static" or "dynamic"; ignored',
      'x-mock: x-mock.errorRate must be a number from 0 to 1; ignored',
      'GET /a: x-mock.delay is capped at MOCK_MAX_DELAY_MS (1000 ms)',
      'GET /a: x-mock.errorStatus must be a status from 400 to 599; ignored',
    ]);
    const later: string[] = [];
    expect(
      mockSettingsOf(documentWith('fast', { delay: [3, 1] }), pointer, workspace, later, 'GET /a').delay,
    ).toBeUndefined();
    expect(later).toEqual([
      'x-mock: x-mock must be an object; ignored',
      'GET /a: x-mock.delay must be milliseconds or [min, max] milliseconds; ignored',
    ]);
  });
});

describe('planFault', () => {
  const settings = {
    examples: 'static' as const,
    delay: [100, 200] as [number, number],
    errorRate: 0.25,
    errorStatus: 503,
  };
  it('draws the delay in the range and the error with the rate', () => {
    expect(planFault(settings, {}, 1000, () => 0)).toEqual({ delayMs: 100, errorStatus: 503 });
    expect(planFault(settings, {}, 1000, () => 0.999)).toEqual({ delayMs: 200 });
  });
  it('Prefer: delay= replaces the configured delay and may not exceed the maximum', () => {
    expect(planFault(settings, { delay: 0 }, 1000, () => 0.5)).toEqual({ delayMs: 0 });
    expect(() => planFault(settings, { delay: 1001 }, 1000)).toThrow(expect.objectContaining({ status: 400 }));
  });
  it('describes a fault for the x-mock-fault header', () => {
    expect(describeFault({ delayMs: 120, errorStatus: 503 })).toBe('delay=120ms, error=503');
    expect(describeFault({ delayMs: 0 })).toBeUndefined();
  });
});
