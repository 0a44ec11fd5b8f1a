/**
 * The channel between the gateway and a handler process: length-prefixed frames over a socket pair (an extra
 * stdio fd), instead of Node's IPC channel. Node's channel frames each message as a JSON line, parses it whole,
 * then emits it as an event; here a frame's length is read first and bounded before a byte of its body is
 * kept, the frames of one event-loop turn leave in one write, and each frame is handed to one callback.
 *
 * A frame: its body's length in bytes (uint32 LE), its kind (uint8), a number (float64 LE: a call id, for
 * the kinds that name one), then the body (UTF-8 text).
 */
import type { Socket } from 'node:net';

/** Length, kind and number. */
export const frameHeaderBytes = 13;

/** What a channel hands its frames to. */
export interface FrameSink {
  /** A whole frame; `body` is valid only during the call (it may share the read buffer). */
  frame(kind: number, id: number, body: Buffer): void;
  /**
   * A frame longer than its kind's limit: its body is skipped as it arrives, never kept. The channel carries on
   * unless the sink {@link FrameChannel.close closes} it.
   */
  oversized(kind: number, id: number, length: number): void;
  /** A frame of an unknown kind (bytes that are not frames): nothing more is read. */
  broken(reason: string): void;
  /** The other side closed the channel, or it failed. */
  ended(reason: string): void;
}

/** Until frames are wanted: a frame is dropped, a broken or ended channel ignored. */
const noSink: FrameSink = {
  frame: () => undefined,
  oversized: () => undefined,
  broken: () => undefined,
  ended: () => undefined,
};

/** Frames queued within a turn whose bytes are at most this (counted three per UTF-16 unit) are encoded without
 * measuring each text first. */
const unmeasuredBatchBytes = 64 * 1024;

/** Splits a byte stream into frames, keeping at most one frame's header and body (within its kind's limit). */
export class FrameReader {
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  /** Bytes needed before the next frame can be read (its header, or its header and body). */
  private needed = frameHeaderBytes;
  /** Bytes of an oversized frame's body still to be skipped. */
  private skipping = 0;
  private stopped = false;

  /**
   * @param limits the largest body of each kind, by kind; a frame of a kind beyond them makes the channel
   *   broken
   */
  constructor(
    private readonly limits: readonly number[],
    private readonly sink: () => FrameSink,
  ) {}

  /** Reads the frames `chunk` completes. */
  push(chunk: Buffer): void {
    if (this.stopped) return;
    if (this.skipping > 0) {
      const skipped = Math.min(this.skipping, chunk.length);
      this.skipping -= skipped;
      if (skipped === chunk.length) return;
      chunk = chunk.subarray(skipped);
    }
    this.chunks.push(chunk);
    this.chunkBytes += chunk.length;
    if (this.chunkBytes < this.needed) return;
    const data = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks, this.chunkBytes);
    this.chunks = [];
    this.chunkBytes = 0;
    this.needed = frameHeaderBytes;
    this.read(data);
  }

  /** Reads no more: the channel is closed. */
  stop(): void {
    this.stopped = true;
    this.chunks = [];
  }

  private read(data: Buffer): void {
    let offset = 0;
    while (!this.stopped && data.length - offset >= frameHeaderBytes) {
      const length = data.readUInt32LE(offset);
      const kind = data[offset + 4];
      const id = data.readDoubleLE(offset + 5);
      const limit = this.limits[kind];
      if (limit === undefined) {
        this.stop();
        return this.sink().broken(`a frame of unknown kind ${kind} (bytes that are not frames)`);
      }
      const start = offset + frameHeaderBytes;
      if (length > limit) {
        const available = data.length - start;
        this.sink().oversized(kind, id, length);
        if (available < length) {
          this.skipping = length - available;
          return;
        }
        offset = start + length;
        continue;
      }
      if (data.length - start < length) {
        this.needed = frameHeaderBytes + length;
        break;
      }
      offset = start + length;
      this.sink().frame(kind, id, data.subarray(start, offset));
    }
    if (this.stopped || offset === data.length) return;
    const rest = data.subarray(offset);
    this.chunks = [rest];
    this.chunkBytes = rest.length;
  }
}

/**
 * One end of a frame channel over `socket`. Frames sent during a turn of the event loop leave together, in one
 * write, once the turn's I/O is done (`setImmediate`): under load one turn serves many requests, and the other side
 * then wakes and reads once for all of them, while a lone frame still leaves in the same turn.
 */
export class FrameChannel {
  private readonly reader: FrameReader;
  private sink: FrameSink = noSink;
  private kinds: number[] = [];
  private ids: number[] = [];
  private texts: string[] = [];
  /** Upper bound of the queued frames' bytes: three per UTF-16 unit. */
  private queuedBound = 0;
  private scheduled = false;
  private closed = false;

  /** @param limits the largest body the other side may send, by kind (see {@link FrameReader}) */
  constructor(
    private readonly socket: Socket,
    limits: readonly number[],
  ) {
    this.reader = new FrameReader(limits, () => this.sink);
    socket.on('data', (chunk: Buffer) => this.reader.push(chunk));
    socket.on('end', () => this.end('the channel was closed'));
    socket.on('error', (error) => this.end(`the channel failed (${error.message})`));
    socket.on('close', () => this.end('the channel was closed'));
  }

  /** Closed by either side, or broken. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Hands the frames read from now on to `sink`. */
  receive(sink: FrameSink): void {
    this.sink = sink;
  }

  /** Queues a frame (sent with the others of this turn); dropped once the channel is closed. */
  send(kind: number, id: number, text: string): void {
    if (this.closed) return;
    this.kinds.push(kind);
    this.ids.push(id);
    this.texts.push(text);
    this.queuedBound += frameHeaderBytes + 3 * text.length;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  /** Whether the process at the other end holds the event loop open through this channel. */
  ref(held: boolean): void {
    if (held) this.socket.ref();
    else this.socket.unref();
  }

  /** Closes the channel: nothing more is read or sent, and the sink is not told. */
  close(): void {
    this.closed = true;
    this.reader.stop();
    this.socket.destroy();
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.close();
    this.sink.ended(reason);
  }

  private readonly flush = (): void => {
    const { kinds, ids, texts } = this;
    this.kinds = [];
    this.ids = [];
    this.texts = [];
    this.scheduled = false;
    const bound = this.queuedBound;
    this.queuedBound = 0;
    if (this.closed) return;
    // Small batches (nearly all) are written into a buffer of their upper bound; larger ones are measured first.
    const bytes = bound <= unmeasuredBatchBytes ? bound : exactBytes(texts);
    const buffer = Buffer.allocUnsafe(bytes);
    let offset = 0;
    for (let i = 0; i < texts.length; i++) {
      const length = buffer.write(texts[i], offset + frameHeaderBytes);
      buffer.writeUInt32LE(length, offset);
      buffer[offset + 4] = kinds[i];
      buffer.writeDoubleLE(ids[i], offset + 5);
      offset += frameHeaderBytes + length;
    }
    this.socket.write(offset === bytes ? buffer : buffer.subarray(0, offset));
  };
}

function exactBytes(texts: readonly string[]): number {
  let bytes = 0;
  for (const text of texts) bytes += frameHeaderBytes + Buffer.byteLength(text);
  return bytes;
}
