import { describe, expect, it } from 'vitest';
import { timeOfDay } from './clock.js';

describe('timeOfDay', () => {
  it('writes the local time of day on a 24-hour clock, with two digits each', () => {
    expect(timeOfDay(new Date(2026, 10, 29, 7, 5, 9))).toBe('07:05:09');
    expect(timeOfDay(new Date(2026, 10, 29, 23, 59, 59, 999))).toBe('23:59:59');
    expect(timeOfDay(new Date(2026, 10, 29, 0, 0, 0))).toBe('00:00:00');
  });

  it('takes epoch milliseconds as well as a Date', () => {
    const date = new Date(2026, 10, 29, 13, 45, 30);
    expect(timeOfDay(date.getTime())).toBe('13:45:30');
  });

  it('leaves the seconds out when asked', () => {
    expect(timeOfDay(new Date(2026, 10, 29, 9, 7, 59), { seconds: false })).toBe('09:07');
  });

  it('writes nothing locale-specific (no AM/PM, no other digits)', () => {
    expect(timeOfDay(new Date(2026, 10, 29, 15, 0, 0))).toMatch(/^\d\d:\d\d:\d\d$/);
  });

  it('says NaN for an invalid date rather than throwing', () => {
    expect(timeOfDay(Number.NaN)).toBe('NaN:NaN:NaN');
  });
});
