import { describe, expect, it } from 'vitest';
import { readableBody, statusClass, tableDuration } from './RequestsPanel.js';

describe('requests panel helpers', () => {
  it('classes statuses', () => {
    expect([200, 304, 399, 400, 404, 499, 500, 503].map(statusClass)).toEqual([
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

  it('shows durations in whole milliseconds from 10 ms, so the column never needs to cut them', () => {
    expect([8251.7, 10, 9.96, 0.4, 3_600_000].map(tableDuration)).toEqual(['8252', '10', '10.0', '0.4', '3600000']);
  });

  it('indents JSON bodies and leaves anything else as sent', () => {
    expect(readableBody('{"a":[1,"ü"]}')).toBe('{\n  "a": [\n    1,\n    "ü"\n  ]\n}');
    expect(readableBody('<xml/>')).toBe('<xml/>');
    expect(readableBody('{"truncated": ')).toBe('{"truncated": ');
    expect(readableBody('')).toBe('');
  });
});
