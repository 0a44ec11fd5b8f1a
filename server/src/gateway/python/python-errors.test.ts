import { describe, expect, it } from 'vitest';
import { handlerErrorOf } from './python-errors.js';

const traceback =
  'Traceback (most recent call last):\n  File "/ws/handlers/a_handler.py", line 3, in f\nKeyError: \'é\'';
// As the worker writes it: Python's json.dumps, with its spaces and non-ASCII escaped.
const reportLine = `{"handler_error": ${JSON.stringify({
  request_id: 'req-7',
  type: 'KeyError',
  message: "'é'",
  traceback,
}).replace(/é/g, '\\u00e9')}}`;

describe("a Python worker's stderr lines", () => {
  it('reads the exception report as an error with its Python type and traceback', () => {
    const report = handlerErrorOf(reportLine);
    expect(report?.requestId).toBe('req-7');
    expect(report?.error).toBeInstanceOf(Error);
    expect(report?.error).toMatchObject({ name: 'KeyError', message: "'é'", stack: traceback });
  });

  it('reads nothing else as a report, whatever a handler prints', () => {
    const valid = { request_id: 'req-7', type: 'KeyError', message: 'm', traceback };
    const lines = [
      '',
      'not json',
      'Traceback (most recent call last):',
      '{"handler_error": ',
      '{"handler_error": "not an object"}',
      '{"handler_error": null}',
      '{"handler_error": []}',
      '[{"handler_error": {}}]',
      ` ${JSON.stringify({ handler_error: valid })}`,
      JSON.stringify({ other: valid }),
      JSON.stringify({ handler_error: { ...valid, request_id: 7 } }),
      JSON.stringify({ handler_error: { ...valid, traceback: ['frame'] } }),
      JSON.stringify({ handler_error: { request_id: 'req-7' } }),
      JSON.stringify({ handler_error: { ...valid, message: 'x'.repeat(300 * 1024) } }),
    ];
    for (const line of lines) expect(handlerErrorOf(line)).toBeUndefined();
  });
});
