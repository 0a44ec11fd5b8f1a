import type { StackFrame } from '../../../server/src/contract/index.js';

/** A logged stack arranged for reading: own code first, library and runtime frames folded away. */
export interface FoldedStack {
  /** The workspace's frames (handlers and their helpers), then the server's, each in stack order. */
  shown: StackFrame[];
  /** Frames of installed packages (`node_modules`; a Python handler's `site-packages`), in stack order. */
  libraries: StackFrame[];
  /** The runtime's own frames (Node's `node:` and native ones; Python's standard library), in stack order. */
  internals: StackFrame[];
  /** What the folded groups are called in the stack's language: `in node_modules`, `in site-packages`. */
  labels: { libraries: string; internals: string };
}

/** Splits `frames` into what {@link FoldedStack} shows and what it folds. */
export function foldStack(frames: readonly StackFrame[]): FoldedStack {
  const of = (place: StackFrame['place']) => frames.filter((frame) => frame.place === place);
  // A Python handler's traceback has the same places (stack-frames.ts on the server sorts them alike).
  const python = frames.some((frame) => frame.file.endsWith('.py'));
  const labels = python
    ? { libraries: 'in site-packages', internals: 'in Python internals' }
    : { libraries: 'in node_modules', internals: 'in Node internals' };
  return {
    shown: [...of('workspace'), ...of('server')],
    libraries: of('node_modules'),
    internals: of('node'),
    labels,
  };
}

/** `at explode (handlers/ledger_handler.ts:3:9)`: a frame as a stack line. */
export function frameText(frame: StackFrame): string {
  const position =
    frame.line === undefined ? '' : `:${frame.line}${frame.column === undefined ? '' : `:${frame.column}`}`;
  return frame.function ? `${frame.function} (${frame.file}${position})` : `${frame.file}${position}`;
}

/** `12 frames in node_modules`: a folded group's label. */
export function foldLabel(count: number, where: string): string {
  return `${count} frame${count === 1 ? '' : 's'} ${where}`;
}
