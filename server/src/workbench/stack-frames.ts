import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoggedError, StackFrame } from '../contract/index.js';

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

/** Whose code `file` is; a workspace file is named by its workspace path (`handlers/orders.ts`). */
function placeOf(file: string, workspace: string | undefined): Pick<StackFrame, 'file' | 'place'> {
  if (isNodeInternal(file)) return { file, place: 'node' };
  if (/[/\\]node_modules[/\\]/.test(file)) return { file, place: 'node_modules' };
  if (workspace !== undefined && path.isAbsolute(file)) {
    const relative = path.relative(workspace, file);
    if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative))
      return { file: relative.split(path.sep).join('/'), place: 'workspace' };
  }
  return { file, place: 'server' };
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

/** The frames of a V8 stack (`Error: message\n    at ...`), at most {@link maxStackFrames}. */
export function parseStack(stack: string, workspace?: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n')) {
    const frame = parseFrame(line, workspace);
    if (frame) frames.push(frame);
    if (frames.length === maxStackFrames) break;
  }
  return frames;
}

/**
 * The error of a log line from pino's serialised `err` (`{type, message, stack}`, `name` when set); `undefined` when
 * `err` is not an object with a message or a stack.
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
