import { describe, expect, it } from 'vitest';
import type { WorkbenchLogLine } from '../contract/index.js';
import { LogLines, parseLogLine } from './log-tap.js';

const stack = 'TypeError: no\n    at route (/ws/handlers/a_handler.ts:4:9)\n    at f (/srv/node_modules/x/i.js:1:1)';

/** The lines `LogLines` publishes, built as an event stream would. */
function collect(): { lines: LogLines; published: WorkbenchLogLine[] } {
  const published: WorkbenchLogLine[] = [];
  const lines = new LogLines((build) => published.push(build()), '/ws');
  return { lines, published };
}

describe('log lines', () => {
  it('turns an err into a structured error, leaving its other fields', () => {
    const line = parseLogLine(
      JSON.stringify({
        level: 50,
        time: 5,
        msg: 'handler failed',
        reqId: 'req-7',
        err: { type: 'Error', name: 'TypeError', message: 'no', stack, code: 'E_NO' },
      }),
      '/ws',
    );
    expect(line).toEqual({
      time: 5,
      level: 'error',
      msg: 'handler failed',
      fields: { reqId: 'req-7', err: { code: 'E_NO' } },
      error: {
        type: 'TypeError',
        message: 'no',
        frames: [
          { function: 'route', file: 'handlers/a_handler.ts', line: 4, column: 9, place: 'workspace' },
          { function: 'f', file: '/srv/node_modules/x/i.js', line: 1, column: 1, place: 'node_modules' },
        ],
      },
    });
  });

  it('keeps the request id of fields cut at the size cap', () => {
    const line = parseLogLine(JSON.stringify({ level: 50, msg: 'x', reqId: 'req-9', huge: 'y'.repeat(10_000) }));
    expect(line?.fields?.reqId).toBe('req-9');
    expect(String(line?.fields?.truncated).length).toBeLessThan(5000);
  });

  it('numbers lines and remembers the first error line of each request', () => {
    const { lines, published } = collect();
    lines.take('not json at all\n');
    lines.take(JSON.stringify({ level: 30, msg: 'info for req-1', reqId: 'req-1' }));
    lines.take(JSON.stringify({ level: 50, msg: 'first error', reqId: 'req-1', err: { message: 'a', stack } }));
    lines.take(JSON.stringify({ level: 50, msg: 'second error', reqId: 'req-1' }));
    lines.take(JSON.stringify({ level: 60, msg: 'fatal', reqId: 'req-2' }));
    expect(published.map((l) => l.id)).toEqual([1, 2, 3, 4, 5]);
    expect(published[0]).toMatchObject({ level: 'info', msg: 'not json at all' });
    expect(lines.errorLineOf('req-1')).toBe(3);
    expect(lines.errorLineOf('req-2')).toBe(5);
    expect(lines.errorLineOf('req-3')).toBeUndefined();
  });

  it("remembers a request's warning (a handler's 504 or 503) when no error was logged, and prefers an error", () => {
    const { lines } = collect();
    lines.take(JSON.stringify({ level: 40, msg: 'Handler did not answer within 10000 ms', reqId: 'req-1' }));
    lines.take(JSON.stringify({ level: 40, msg: 'restarting', reqId: 'req-2' }));
    lines.take(JSON.stringify({ level: 50, msg: 'the error', reqId: 'req-2' }));
    lines.take(JSON.stringify({ level: 40, msg: 'a later warning', reqId: 'req-2' }));
    expect(lines.errorLineOf('req-1')).toBe(1);
    expect(lines.errorLineOf('req-2')).toBe(3);
  });

  it('ignores hostile request ids and forgets the oldest beyond its bound', () => {
    const { lines } = collect();
    lines.take(JSON.stringify({ level: 50, msg: 'x', reqId: { toString: 'req-1' } }));
    lines.take(JSON.stringify({ level: 50, msg: 'x', reqId: 12 }));
    lines.take('{"level":50,"reqId":"req-1"'); // cut short: not JSON
    expect(lines.errorLineOf('req-1')).toBeUndefined();
    for (let i = 0; i < 1001; i++) lines.take(JSON.stringify({ level: 50, msg: 'x', reqId: `r-${i}` }));
    expect(lines.errorLineOf('r-0')).toBeUndefined();
    expect(lines.errorLineOf('r-1000')).toBeDefined();
  });

  it('parses nothing until a line is wanted, unless it names a request', () => {
    const builders: Array<() => WorkbenchLogLine> = [];
    const lines = new LogLines((build) => builders.push(build));
    lines.take('{"level":30,"msg":"plain"}');
    expect(builders).toHaveLength(1);
    expect(builders[0]()).toMatchObject({ id: 1, msg: 'plain' });
  });
});
