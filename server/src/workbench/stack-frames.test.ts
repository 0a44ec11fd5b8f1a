import { describe, expect, it } from 'vitest';
import { loggedError, maxStackFrames, parseFrame, parseStack } from './stack-frames.js';

const workspace = '/tmp/ws';

describe('stack frames', () => {
  it('parses the frame forms V8 writes, and tells whose code each is', () => {
    const stack = [
      'TypeError: boom',
      '    at throwIt (/tmp/ws/handlers/orders.ts:12:11)',
      '    at async Router.dispatch (file:///srv/app/server/dist/handler-sdk/router.js:40:5)',
      '    at new Parser (/srv/app/node_modules/yaml/dist/parse.js:7:9)',
      '    at /srv/app/node_modules/.pnpm/fastify@5/node_modules/fastify/lib/route.js:1:2',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at Array.map (<anonymous>)',
      '    at JSON.parse (native)',
      '    at C:\\work\\app\\node_modules\\lib\\index.js:3:4',
    ].join('\n');
    expect(parseStack(stack, workspace)).toEqual([
      { function: 'throwIt', file: 'handlers/orders.ts', line: 12, column: 11, place: 'workspace' },
      {
        function: 'async Router.dispatch',
        file: '/srv/app/server/dist/handler-sdk/router.js',
        line: 40,
        column: 5,
        place: 'server',
      },
      {
        function: 'new Parser',
        file: '/srv/app/node_modules/yaml/dist/parse.js',
        line: 7,
        column: 9,
        place: 'node_modules',
      },
      {
        file: '/srv/app/node_modules/.pnpm/fastify@5/node_modules/fastify/lib/route.js',
        line: 1,
        column: 2,
        place: 'node_modules',
      },
      {
        function: 'process.processTicksAndRejections',
        file: 'node:internal/process/task_queues',
        line: 95,
        column: 5,
        place: 'node',
      },
      { function: 'Array.map', file: '<anonymous>', place: 'node' },
      { function: 'JSON.parse', file: 'native', place: 'node' },
      { file: 'C:\\work\\app\\node_modules\\lib\\index.js', line: 3, column: 4, place: 'node_modules' },
    ]);
  });

  it('keeps the location of an eval frame whole, and a file beside the workspace out of it', () => {
    expect(parseFrame('    at eval (eval at run (/tmp/ws/handlers/a.ts:1:2), <anonymous>:3:4)', workspace)).toEqual({
      function: 'eval',
      file: 'eval at run (/tmp/ws/handlers/a.ts:1:2), <anonymous>',
      line: 3,
      column: 4,
      place: 'server',
    });
    // A sibling folder whose name starts like the workspace's is not inside it.
    expect(parseFrame('at f (/tmp/ws2/x.js:1:1)', workspace)?.place).toBe('server');
    expect(parseFrame('at f (/tmp/ws/../etc/x.js:1:1)', workspace)?.place).toBe('server');
    // Without a workspace, nothing is a workspace frame.
    expect(parseFrame('at f (/tmp/ws/handlers/a.ts:1:1)')?.place).toBe('server');
  });

  it('skips what is no frame: the message, its extra lines, blank and hostile lines', () => {
    const stack = 'Error: line one\nline two "at" the end\n\n   \nat\n    at f (/x.js:1:1)\n\u0000at g';
    expect(parseStack(stack)).toEqual([{ function: 'f', file: '/x.js', line: 1, column: 1, place: 'server' }]);
    expect(parseFrame('    at f (file://%E0%A4%A/x.js:1:1)')).toMatchObject({ file: 'file://%E0%A4%A/x.js' });
  });

  it('keeps at most the first frames of a runaway recursion', () => {
    const stack = ['RangeError: Maximum call stack size exceeded']
      .concat(Array.from({ length: 5000 }, (_, i) => `    at recurse (/tmp/ws/handlers/r.ts:${i + 1}:1)`))
      .join('\n');
    const frames = parseStack(stack, workspace);
    expect(frames).toHaveLength(maxStackFrames);
    expect(frames[0].line).toBe(1);
  });

  it("reads pino's serialised error, and refuses what is not one", () => {
    expect(
      loggedError({ type: 'Error', message: 'x', stack: 'Error: x\n    at f (/tmp/ws/handlers/a.ts:2:3)' }, workspace),
    ).toEqual({
      type: 'Error',
      message: 'x',
      frames: [{ function: 'f', file: 'handlers/a.ts', line: 2, column: 3, place: 'workspace' }],
    });
    expect(loggedError({ message: 'no stack' })).toEqual({ message: 'no stack', frames: [] });
    for (const hostile of [undefined, null, 'Error: x', 42, {}, { message: 3, stack: [] }])
      expect(loggedError(hostile)).toBeUndefined();
  });
});
