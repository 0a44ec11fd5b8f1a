import type { Readable } from 'node:stream';
import type { Logger } from '../../core/logger.js';

/** A logged line of a handler's output is cut at this many characters, and marked so. */
export const maxLoggedLineChars = 4096;
/** Lines a module may log per second on average, and at most at once after a quiet spell. */
const linesPerSecond = 100;
const lineBurst = 1000;
/** Characters a module may log per second on average, and at most at once. */
const charsPerSecond = 64 * 1024;
const charBurst = 256 * 1024;
/** While lines are dropped, how often the count is logged. */
const droppedNoticeMs = 1000;
/**
 * Bytes of a module's output read in one second, logged or not, past which it is no longer read for the rest
 * of that second: its writes then wait (a pipe is full), so that a module writing as fast as it can, with or
 * without newlines, costs the gateway no more.
 */
const maxReadBytesPerSecond = 1024 * 1024;

/**
 * Splits `stream` into lines without ever holding more than `maxLineBytes` of one: a longer line is handed
 * over cut at that size (with `cut` true) as soon as it gets there, and the rest of it, up to the next
 * newline, is skipped. A handler writing without newlines therefore costs the gateway at most `maxLineBytes`.
 */
export function readBoundedLines(
  stream: Readable,
  maxLineBytes: number,
  onLine: (line: Buffer, cut: boolean) => void,
): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** The current line was handed over cut: skip up to its newline. */
  let skipping = false;
  const take = (piece: Buffer, ended: boolean) => {
    if (skipping) {
      if (ended) skipping = false;
      return;
    }
    const room = maxLineBytes - pendingBytes;
    if (piece.length > room || (!ended && piece.length === room)) {
      pending.push(piece.subarray(0, room));
      pendingBytes += room;
      skipping = !ended;
      return flush(true);
    }
    pending.push(piece);
    pendingBytes += piece.length;
    if (ended) flush(false);
  };
  const flush = (cut: boolean) => {
    const line = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    onLine(line.at(-1) === 13 ? line.subarray(0, -1) : line, cut);
  };
  stream.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      take(chunk.subarray(start, end), true);
      start = end + 1;
    }
    if (start < chunk.length) take(chunk.subarray(start), false);
  });
  stream.on('end', () => {
    if (pendingBytes > 0 && !skipping) flush(false);
  });
}

/** `line` as a log message: cut at {@link maxLoggedLineChars}, and marked when it or its reading was cut. */
export function loggedLine(line: string, cut = false): string {
  if (line.length <= maxLoggedLineChars && !cut) return line;
  const shown = line.slice(0, maxLoggedLineChars);
  return `${shown}… [line cut: longer than ${cut ? `${Buffer.byteLength(line)} bytes` : `${line.length} characters`}]`;
}

/**
 * The output budget of one handler module (all its streams and processes, across restarts): lines are
 * logged with the module's fields while it keeps under {@link linesPerSecond} lines and {@link charsPerSecond}
 * characters a second (with bursts); the rest are dropped, and their count logged once a second, so a
 * handler flooding its output can neither fill the gateway's log nor spend its time.
 */
export class HandlerOutput {
  private lines = lineBurst;
  private chars = charBurst;
  private refilledAt = performance.now();
  private dropped = 0;
  private readBytes = 0;
  private readSince = performance.now();
  private paused = false;
  private noticeTimer: NodeJS.Timeout | undefined;
  /** The streams read, paused together while the module writes far over its budget. */
  private readonly streams = new Set<Readable>();

  constructor(
    private readonly log: Logger,
    private readonly fields: Record<string, unknown>,
  ) {}

  /**
   * Reads `stream` in bounded lines ({@link readBoundedLines}) and hands each to `onLine` (by default: logs
   * it at `level` within the budget). The stream is paused with the module's others while far over budget.
   */
  forward(
    stream: Readable,
    level: 'info' | 'warn',
    maxLineBytes = maxLoggedLineChars * 4,
    onLine = (line: Buffer, cut: boolean) => this.write(level, line, cut),
  ): void {
    this.streams.add(stream);
    stream.once('close', () => this.streams.delete(stream));
    stream.on('data', (chunk: Buffer) => this.countRead(chunk.length));
    readBoundedLines(stream, maxLineBytes, onLine);
  }

  /**
   * Logs one line of the module's output at `level`, or counts it as dropped when the module is over its
   * budget (then without decoding it).
   */
  write(level: 'info' | 'warn', line: Buffer | string, cut = false): void {
    const size = Math.min(line.length, maxLoggedLineChars + 100);
    if (!this.admit(size)) return this.drop();
    this.log[level](this.fields, loggedLine(typeof line === 'string' ? line : line.toString('utf8'), cut));
  }

  /** Logs the count of lines dropped so far, if any. */
  close(): void {
    clearTimeout(this.noticeTimer);
    this.noticeDropped();
  }

  private admit(chars: number): boolean {
    const now = performance.now();
    const seconds = (now - this.refilledAt) / 1000;
    this.refilledAt = now;
    this.lines = Math.min(lineBurst, this.lines + seconds * linesPerSecond);
    this.chars = Math.min(charBurst, this.chars + seconds * charsPerSecond);
    if (this.lines < 1 || this.chars < chars) return false;
    this.lines -= 1;
    this.chars -= chars;
    return true;
  }

  private drop(): void {
    this.dropped++;
    this.noticeTimer ??= setTimeout(this.noticeDropped, droppedNoticeMs).unref();
  }

  /** Pauses the module's streams for the rest of the second once it has written too much in it. */
  private countRead(bytes: number): void {
    const now = performance.now();
    if (now - this.readSince >= 1000) {
      this.readSince = now;
      this.readBytes = 0;
    }
    this.readBytes += bytes;
    if (this.paused || this.readBytes <= maxReadBytesPerSecond) return;
    this.paused = true;
    for (const stream of this.streams) stream.pause();
    setTimeout(
      () => {
        this.paused = false;
        for (const stream of this.streams) stream.resume();
      },
      this.readSince + 1000 - now,
    ).unref();
  }

  private readonly noticeDropped = (): void => {
    this.noticeTimer = undefined;
    if (this.dropped === 0) return;
    this.log.warn(
      { ...this.fields, dropped: this.dropped },
      `${this.dropped} lines of handler output dropped: over ${linesPerSecond} lines or ` +
        `${charsPerSecond / 1024} KiB a second`,
    );
    this.dropped = 0;
  };
}
