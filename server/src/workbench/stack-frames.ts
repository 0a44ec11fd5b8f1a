import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoggedError, StackFrame } from '../contract/index.js';
import { pythonWorkerScript } from '../gateway/index.js';

/** Frames kept of one stack: beyond this, a stack is a runaway recursion and the rest says nothing new. */
export const maxStackFrames = 100;

/** `/x/y.js:3:7` → file, line, column; a location without a position (`native`, `<anonymous>`) is all file. */
const positionPattern = /^(.*):(\d+):(\d+)$/;

/** The file of a stack location as a path: `file://` URLs decoded (a malformed one is kept as written). */
function filePath(location: string): string {
  if (!location.startsWith('file://')) return location;
  try {
    return fileURLToPath(location);
  } catch {
    return location;
  }
}

function isNodeInternal(file: string): boolean {
  return file.startsWith('node:') || file.startsWith('internal/') || file === 'native' || file.startsWith('<');
}

/** `file` as a workspace frame, named by its workspace path (`handlers/orders.ts`), or as the server's. */
function workspaceOrServer(file: string, workspace: string | undefined): Pick<StackFrame, 'file' | 'place'> {
  if (workspace !== undefined && path.isAbsolute(file)) {
    const relative = path.relative(workspace, file);
    if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative))
      return { file: relative.split(path.sep).join('/'), place: 'workspace' };
  }
  return { file, place: 'server' };
}

/** Whose code `file` of a V8 stack is. */
function placeOf(file: string, workspace: string | undefined): Pick<StackFrame, 'file' | 'place'> {
  if (isNodeInternal(file)) return { file, place: 'node' };
  if (/[/\\]node_modules[/\\]/.test(file)) return { file, place: 'node_modules' };
  return workspaceOrServer(file, workspace);
}

/**
 * Whose code `file` of a Python traceback is, folded as a Node stack's are: libraries (`site-packages`,
 * Debian's `dist-packages`) as node_modules; the standard library (`lib/python3.11/`), the interpreter's
 * own code (`<frozen runpy>`, `<string>`) and the gateway's worker script as the runtime's internals.
 */
function pythonPlaceOf(file: string, workspace: string | undefined): Pick<StackFrame, 'file' | 'place'> {
  // Before the standard library's folder: a virtual environment's packages are under `lib/python3.x/` too.
  if (/[/\\](site|dist)-packages[/\\]/.test(file)) return { file, place: 'node_modules' };
  if (file.startsWith('<') || file === pythonWorkerScript || /[/\\]lib[/\\]python\d[\d.]*[/\\]/.test(file))
    return { file, place: 'node' };
  return workspaceOrServer(file, workspace);
}

/**
 * A Python traceback's header, an exception group's too (`  + Exception Group Traceback ...`); on any line, as
 * a chain can start with an exception that was never raised (no header). Blanks, not `\s`: a `\s*` spanning
 * lines would make a stack of newlines quadratic.
 */
const pythonTracebackPattern = /^[ \t]*(?:[|+][ \t]*)*(?:Exception Group )?Traceback \(most recent call last\):$/m;

/**
 * `  File "/x/y.py", line 12, in fn`: a frame of a Python traceback (no `, in fn` at a syntax error's
 * location; `|` before it in an exception group's).
 */
const pythonFramePattern = /^\s*(?:\|\s*)*File "(.*)", line (\d+)(?:, in (.+))?$/;

/**
 * The frames of a Python traceback (`Traceback (most recent call last):`, `  File ...` lines, each followed
 * by its source line, the exception last; chained exceptions one after another), innermost first, at most
 * {@link maxStackFrames}: Python writes the outermost call first, V8 and every stack shown the innermost.
 */
function parsePythonTraceback(traceback: string, workspace?: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of traceback.split('\n')) {
    const match = pythonFramePattern.exec(line);
    if (match)
      frames.push({
        ...(match[3] ? { function: match[3] } : {}),
        ...pythonPlaceOf(match[1], workspace),
        line: Number(match[2]),
      });
  }
  return frames.reverse().slice(0, maxStackFrames);
}

/**
 * One line of a V8 stack as a frame: `at fn (file:line:col)`, `at file:line:col`, `at async fn (...)`,
 * `at new Foo (...)`, `at fn (native)`; `undefined` for a line that is no frame (the message).
 */
export function parseFrame(line: string, workspace?: string): StackFrame | undefined {
  const text = line.trim();
  if (!text.startsWith('at ')) return undefined;
  const rest = text.slice(3);
  // The location is in the trailing parentheses when a function is named; its own text may hold more
  // parentheses (`eval at f (x.js:1:2), <anonymous>:1:1`), the function name none followed by a space.
  const open = rest.indexOf(' (');
  const named = open !== -1 && rest.endsWith(')');
  const location = named ? rest.slice(open + 2, -1) : rest;
  const name = named ? rest.slice(0, open) : undefined;
  const position = positionPattern.exec(location);
  const frame: StackFrame = {
    ...(name ? { function: name } : {}),
    ...placeOf(filePath(position ? position[1] : location), workspace),
  };
  if (position) {
    frame.line = Number(position[2]);
    frame.column = Number(position[3]);
  }
  return frame;
}

/**
 * The frames of a V8 stack (`Error: message\n    at ...`), or of a Python traceback (a Python handler's
 * error, told by its header), innermost first, at most {@link maxStackFrames}.
 */
export function parseStack(stack: string, workspace?: string): StackFrame[] {
  if (pythonTracebackPattern.test(stack)) return parsePythonTraceback(stack, workspace);
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n')) {
    const frame = parseFrame(line, workspace);
    if (frame) frames.push(frame);
    if (frames.length === maxStackFrames) break;
  }
  return frames;
}

/**
 * The error of a log line from pino's serialised `err` (`{type, message, stack}`, `name` when set; a Python
 * handler's has its traceback as `stack`); `undefined` when `err` is not an object with a message or a stack.
 */
export function loggedError(err: unknown, workspace?: string): LoggedError | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const { name, type, message, stack } = err as Record<string, unknown>;
  if (typeof message !== 'string' && typeof stack !== 'string') return undefined;
  const error: LoggedError = {
    message: typeof message === 'string' ? message : '',
    frames: typeof stack === 'string' ? parseStack(stack, workspace) : [],
  };
  // `type` is the constructor's name; an error rebuilt from another process (a handler's) has it in `name`.
  const kind = typeof name === 'string' ? name : type;
  if (typeof kind === 'string') error.type = kind;
  return error;
}
