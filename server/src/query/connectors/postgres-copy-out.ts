import { Readable } from 'node:stream';
import type { Connection } from 'pg';

/** Backend message types met during `COPY ... TO STDOUT` (PostgreSQL protocol, "COPY Operations"). */
const copyData = 0x64; // 'd'
const copyDone = 0x63; // 'c'
const errorResponse = 0x45; // 'E'
/** Messages the backend may send between CopyOutResponse and CopyDone that carry no copied bytes. */
const interspersed = new Set([
  0x48 /* CopyOutResponse 'H' */, 0x4e /* NoticeResponse 'N' */, 0x53 /* ParameterStatus 'S' */,
  0x41 /* NotificationResponse 'A' */,
]);
/** Rows shorter than this are copied byte by byte: cheaper than a native copy call per row. */
const shortRow = 64;

/**
 * `COPY ... TO STDOUT` as a readable stream of the copied bytes, submitted with `client.query(stream)`.
 * It reads the connection's socket itself while the COPY runs and hands the socket back to `pg` at
 * the end (or at an error, which `pg` then reports through `handleError`), as `pg-copy-streams` does.
 * Unlike it, each CopyData message (one per row) costs a few byte copies instead of several buffer
 * objects: relaying a million rows took Node about 350 ms of CPU with `pg-copy-streams`, as much as
 * PostgreSQL spent producing them.
 */
export class CopyOutStream extends Readable {
  private connection?: Connection;
  private pgDataHandler?: (chunk: Buffer) => void;
  /** An incomplete message header or non-data message carried over to the next chunk. */
  private pending: Buffer = Buffer.alloc(0);
  /** Bytes of the current CopyData message still to come in later chunks. */
  private payloadLeft = 0;
  private wanted = false;
  private forwarding = false;
  private attached = false;
  private readonly onReadable = () => this.forward();

  constructor(private readonly text: string) {
    super();
  }

  /** Called by `pg` when the query's turn comes. */
  submit(connection: Connection): void {
    this.connection = connection;
    const socket = connection.stream;
    const listeners = socket.listeners('data') as ((chunk: Buffer) => void)[];
    if (listeners.length !== 1)
      throw new Error(`expected one data listener on the PostgreSQL socket, found ${listeners.length}`);
    this.pgDataHandler = listeners[0];
    socket.removeListener('data', this.pgDataHandler);
    socket.pause();
    socket.on('readable', this.onReadable);
    this.attached = true;
    connection.query(this.text);
  }

  override _read(): void {
    this.wanted = true;
    this.forward();
  }

  private forward(): void {
    if (this.forwarding || !this.wanted || !this.attached) return;
    this.forwarding = true;
    let chunk: Buffer | null;
    while (this.wanted && this.attached && (chunk = this.connection!.stream.read() as Buffer | null) !== null)
      this.wanted = this.parse(chunk);
    this.forwarding = false;
  }

  /** Copies the row bytes of `chunk` out; returns whether the reader wants more. */
  private parse(chunk: Buffer): boolean {
    const input = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    const output = Buffer.allocUnsafe(input.length);
    let out = 0;
    let at = 0;
    if (this.payloadLeft > 0) {
      const n = Math.min(this.payloadLeft, input.length);
      input.copy(output, 0, 0, n);
      out = n;
      at = n;
      this.payloadLeft -= n;
    }
    while (at < input.length) {
      if (input.length - at < 5) {
        this.pending = Buffer.from(input.subarray(at));
        break;
      }
      const code = input[at];
      const end = at + 1 + ((input[at + 1] << 24) | (input[at + 2] << 16) | (input[at + 3] << 8) | input[at + 4]);
      if (code === copyData) {
        const start = at + 5;
        const stop = Math.min(end, input.length);
        if (stop - start < shortRow) for (let i = start; i < stop; i++) output[out++] = input[i];
        else out += input.copy(output, out, start, stop);
        this.payloadLeft = end - stop;
        at = stop;
      } else if (interspersed.has(code)) {
        if (end > input.length) {
          this.pending = Buffer.from(input.subarray(at));
          break;
        }
        at = end;
      } else {
        // CopyDone (its header is all of it) ends the rows; what follows (CommandComplete,
        // ReadyForQuery) is pg's, and so is an ErrorResponse, which pg reports through handleError.
        const more = out > 0 ? this.push(output.subarray(0, out)) : true;
        this.detach(input.subarray(code === copyDone ? end : at));
        if (code !== errorResponse) this.push(null);
        return more;
      }
    }
    return out > 0 ? this.push(output.subarray(0, out)) : true;
  }

  /** Gives the socket back to `pg`, with the bytes read but not consumed. */
  private detach(unread: Buffer): void {
    const socket = this.connection!.stream;
    this.attached = false;
    socket.removeListener('readable', this.onReadable);
    socket.addListener('data', this.pgDataHandler!);
    this.pgDataHandler!(unread);
    // pg's handler may pause the socket on its own; resume once it is done with this chunk.
    process.nextTick(() => socket.resume());
  }

  /** Called by `pg` with the error of the COPY (the server's ErrorResponse, or a dropped connection). */
  handleError(error: Error): void {
    this.destroy(error);
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {}
}
