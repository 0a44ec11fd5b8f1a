import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonWorkerScript } from '../gateway/index.js';
import { makeWorkspace, removeWorkspace } from '../test-support/workspace.js';
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

// A handler module whose calls go through a library (in site-packages) and the standard library (json,
// importlib) before they fail; line numbers are asserted below.
const ordersHandler = `import importlib
import json

import libby


def parse(text):
    try:
        return json.loads(text)
    except ValueError as error:
        raise ValueError("montant illisible \u2014 \u00ab\u20ac\u00bb \u{1F4A5}") from error


def total(text):
    return libby.apply(parse, text)


def load_helper():
    return importlib.import_module("broken_helper")


def ping(n):
    return pong(n + 1) if n < 600 else explode(n)


def pong(n):
    return ping(n + 1)


def explode(n):
    raise RuntimeError(f"depth {n}")
`;

describe('Python tracebacks', () => {
  let root: string;
  let pythonWorkspace: string;
  beforeAll(() => {
    root = makeWorkspace({
      'ws/handlers/orders_handler.py': ordersHandler,
      'ws/handlers/broken_helper.py': 'x = 1\ndef oops(:\n    pass\n',
      'site/site-packages/libby.py': 'def apply(fn, arg):\n    return fn(arg)\n',
    });
    pythonWorkspace = path.join(root, 'ws');
  });
  afterAll(() => removeWorkspace(root));

  /** The traceback of `call` as the worker writes it (its own `bounded_traceback`), from a real Python. */
  function tracebackOf(call: string): string {
    const paths = [
      path.dirname(pythonWorkerScript),
      path.join(root, 'ws/handlers'),
      path.join(root, 'site/site-packages'),
    ];
    const script = [
      'import sys',
      `sys.path[:0] = ${JSON.stringify(paths)}`,
      'from adaptive_worker import bounded_traceback',
      'import orders_handler',
      'try:',
      `    orders_handler.${call}`,
      'except BaseException as error:',
      '    sys.stdout.write(bounded_traceback(error))',
    ].join('\n');
    return execFileSync('python3', ['-c', script], {
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
    });
  }

  it('reads nested calls through a library and a chained cause, innermost first, libraries folded', () => {
    const traceback = tracebackOf('total(\'{"a": \')');
    expect(traceback).toMatch(/^Traceback \(most recent call last\):\n/);
    expect(traceback).toContain('ValueError: montant illisible \u2014 \u00ab\u20ac\u00bb \u{1F4A5}');
    const frames = parseStack(traceback, pythonWorkspace);
    expect(frames.slice(0, 4)).toEqual([
      { function: 'parse', file: 'handlers/orders_handler.py', line: 11, place: 'workspace' },
      {
        function: 'apply',
        file: path.join(root, 'site/site-packages/libby.py'),
        line: 2,
        place: 'node_modules',
      },
      { function: 'total', file: 'handlers/orders_handler.py', line: 15, place: 'workspace' },
      { function: '<module>', file: '<string>', line: 6, place: 'node' },
    ]);
    // Then the cause (the JSON error): the standard library's frames as the runtime's, the call that failed last.
    const standardLibrary = frames.filter((frame) => /[/\\]json[/\\]/.test(frame.file));
    expect(standardLibrary.length).toBeGreaterThan(0);
    expect(standardLibrary.every((frame) => frame.place === 'node')).toBe(true);
    expect(frames.at(-1)).toEqual({
      function: 'parse',
      file: 'handlers/orders_handler.py',
      line: 9,
      place: 'workspace',
    });
  });

  it("puts a syntax error's location, which names no function, first", () => {
    const traceback = tracebackOf('load_helper()');
    expect(traceback).toMatch(/SyntaxError/);
    const frames = parseStack(traceback, pythonWorkspace);
    expect(frames[0]).toEqual({ file: 'handlers/broken_helper.py', line: 2, place: 'workspace' });
    expect(frames.filter((frame) => frame.place === 'workspace').slice(1)).toEqual([
      { function: 'load_helper', file: 'handlers/orders_handler.py', line: 19, place: 'workspace' },
    ]);
    // importlib, whether its frames are `<frozen importlib._bootstrap>` or files.
    expect(frames.filter((frame) => frame.file.includes('importlib')).every((frame) => frame.place === 'node')).toBe(
      true,
    );
  });

  it('keeps the header and the innermost frames of a traceback the worker had to cut', () => {
    const traceback = tracebackOf('ping(0)');
    expect(traceback.length).toBeLessThan(34_000);
    expect(traceback.split('\n').slice(0, 2)).toEqual(['Traceback (most recent call last):', '  [outer frames cut]']);
    expect(traceback).toMatch(/\nRuntimeError: depth 600$/);
    const frames = parseStack(traceback, pythonWorkspace);
    expect(frames).toHaveLength(maxStackFrames);
    expect(frames.slice(0, 3)).toEqual([
      { function: 'explode', file: 'handlers/orders_handler.py', line: 31, place: 'workspace' },
      { function: 'ping', file: 'handlers/orders_handler.py', line: 23, place: 'workspace' },
      { function: 'pong', file: 'handlers/orders_handler.py', line: 27, place: 'workspace' },
    ]);
  });

  it('reads an exception group, and a 500 as the worker reports it with its plumbing folded', () => {
    // Printed by python3 3.11 for an ExceptionGroup raised in /tmp/ws/handlers/batch_handler.py.
    const group = [
      '  + Exception Group Traceback (most recent call last):',
      '  |   File "<string>", line 1, in <module>',
      '  |   File "/tmp/ws/handlers/batch_handler.py", line 13, in handle',
      '  |     raise ExceptionGroup("lot refus\u00e9", errors)',
      '  | ExceptionGroup: lot refus\u00e9 (1 sub-exception)',
      '  +-+---------------- 1 ----------------',
      '    | Traceback (most recent call last):',
      '    |   File "/tmp/ws/handlers/batch_handler.py", line 10, in handle',
      '    |     check(n)',
      '    |   File "/tmp/ws/handlers/batch_handler.py", line 3, in check',
      '    |     raise ValueError(f"n\u00e9gatif: {n} \u{1F4A5}")',
      '    | ValueError: n\u00e9gatif: -1 \u{1F4A5}',
      '    +------------------------------------',
    ].join('\n');
    expect(parseStack(group, workspace).map((frame) => [frame.function, frame.line, frame.place])).toEqual([
      ['check', 3, 'workspace'],
      ['handle', 10, 'workspace'],
      ['handle', 13, 'workspace'],
      ['<module>', 1, 'node'],
    ]);
    // As the worker reported a handler's KeyError (Debian's FastAPI, shortened), under a frame of the worker itself.
    const stack = [
      'Traceback (most recent call last):',
      `  File "${pythonWorkerScript}", line 150, in serve`,
      '    await task',
      '  File "/usr/lib/python3/dist-packages/starlette/middleware/errors.py", line 162, in __call__',
      '    await self.app(scope, receive, _send)',
      '  File "/usr/lib/python3/dist-packages/fastapi/routing.py", line 163, in run_endpoint_function',
      '    return await dependant.call(**values)',
      '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
      '  File "/tmp/ws/handlers/boom_handler.py", line 9, in boom',
      '    return helper(3)',
      '           ^^^^^^^^^',
      '  File "/tmp/ws/handlers/boom_handler.py", line 5, in helper',
      '    return {"x": 1}["missing \u00e9"]',
      '           ~~~~~~~~^^^^^^^^^^^^^',
      "KeyError: 'missing \u00e9'",
    ].join('\n');
    expect(loggedError({ type: 'Error', name: 'KeyError', message: "'missing \u00e9'", stack }, workspace)).toEqual({
      type: 'KeyError',
      message: "'missing \u00e9'",
      frames: [
        { function: 'helper', file: 'handlers/boom_handler.py', line: 5, place: 'workspace' },
        { function: 'boom', file: 'handlers/boom_handler.py', line: 9, place: 'workspace' },
        {
          function: 'run_endpoint_function',
          file: '/usr/lib/python3/dist-packages/fastapi/routing.py',
          line: 163,
          place: 'node_modules',
        },
        {
          function: '__call__',
          file: '/usr/lib/python3/dist-packages/starlette/middleware/errors.py',
          line: 162,
          place: 'node_modules',
        },
        { function: 'serve', file: pythonWorkerScript, line: 150, place: 'node' },
      ],
    });
  });

  it('keeps a V8 stack whose message quotes Python frames a V8 stack', () => {
    const stack = 'Error: worker said  File "/tmp/ws/x.py", line 3, in f\n    at run (/tmp/ws/handlers/a.ts:1:2)';
    expect(parseStack(stack, workspace)).toEqual([
      { function: 'run', file: 'handlers/a.ts', line: 1, column: 2, place: 'workspace' },
    ]);
  });
});
