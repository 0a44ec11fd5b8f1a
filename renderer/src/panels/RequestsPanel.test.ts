import { describe, expect, it } from 'vitest';
import { readableBody, statusClass } from './RequestsPanel.js';

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

  it('indents JSON bodies and leaves anything else as sent', () => {
    expect(readableBody('{"a":[1,"ü"]}')).toBe('{\n  "a": [\n    1,\n    "ü"\n  ]\n}');
    expect(readableBody('<xml/>')).toBe('<xml/>');
    expect(readableBody('{"truncated": ')).toBe('{"truncated": ');
    expect(readableBody('')).toBe('');
  });
});
