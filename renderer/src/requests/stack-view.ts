import type { StackFrame } from '../../../server/src/contract/index.js';

/** A logged stack arranged for reading: own code first, library and Node frames folded away. */
export interface FoldedStack {
  /** The workspace's frames (handlers and their helpers), then the server's, each in stack order. */
  shown: StackFrame[];
  /** Frames in `node_modules`, in stack order. */
  libraries: StackFrame[];
  /** Node's internals (`node:`, native), in stack order. */
  internals: StackFrame[];
}

/** Splits `frames` into what {@link FoldedStack} shows and what it folds. */
export function foldStack(frames: readonly StackFrame[]): FoldedStack {
  const of = (place: StackFrame['place']) => frames.filter((frame) => frame.place === place);
  return { shown: [...of('workspace'), ...of('server')], libraries: of('node_modules'), internals: of('node') };
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
