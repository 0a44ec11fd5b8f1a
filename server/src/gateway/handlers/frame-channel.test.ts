import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { FrameChannel, FrameReader, frameHeaderBytes, type FrameSink } from './frame-channel.js';

/** One frame's bytes, as the other side writes it. */
function frame(kind: number, id: number, text: string, length = Buffer.byteLength(text)): Buffer {
  const head = Buffer.alloc(frameHeaderBytes);
  head.writeUInt32LE(length, 0);
  head[4] = kind;
  head.writeDoubleLE(id, 5);
  return Buffer.concat([head, Buffer.from(text)]);
}

/** What a sink was handed, in order. */
function recorder(): { sink: FrameSink; seen: unknown[] } {
  const seen: unknown[] = [];
  return {
    seen,
    sink: {
      frame: (kind, id, body) => seen.push(['frame', kind, id, body.toString()]),
      oversized: (kind, id, length) => seen.push(['oversized', kind, id, length]),
      broken: (reason) => seen.push(['broken', reason]),
      ended: (reason) => seen.push(['ended', reason]),
    },
  };
}

const limits = [100, 10];

describe('FrameReader', () => {
  it('reads frames however the stream is cut: byte by byte, several in one chunk, multi-byte text', () => {
    const bytes = Buffer.concat([frame(0, 0, '{"a":1}'), frame(1, 7, '"é€"'), frame(0, 0, '')]);
    for (const cut of [1, 2, 5, 13, 14, bytes.length]) {
      const { sink, seen } = recorder();
      const reader = new FrameReader(limits, () => sink);
      for (let offset = 0; offset < bytes.length; offset += cut) reader.push(bytes.subarray(offset, offset + cut));
      expect(seen).toEqual([
        ['frame', 0, 0, '{"a":1}'],
        ['frame', 1, 7, '"é€"'],
        ['frame', 0, 0, ''],
      ]);
    }
  });

  it('hands nothing of a truncated frame', () => {
    const { sink, seen } = recorder();
    const reader = new FrameReader(limits, () => sink);
    const bytes = frame(0, 0, '{"a":1}');
    reader.push(bytes.subarray(0, 10));
    reader.push(bytes.subarray(10, bytes.length - 1));
    expect(seen).toEqual([]);
  });

  it('skips an oversized frame as it arrives, without keeping it, and reads the next one', () => {
    const { sink, seen } = recorder();
    const reader = new FrameReader(limits, () => sink);
    const body = 'x'.repeat(50);
    const bytes = Buffer.concat([frame(1, 3, body), frame(1, 4, '"ok"')]);
    reader.push(bytes.subarray(0, 20));
    reader.push(bytes.subarray(20, 40));
    reader.push(bytes.subarray(40));
    expect(seen).toEqual([
      ['oversized', 1, 3, 50],
      ['frame', 1, 4, '"ok"'],
    ]);
  });

  it('reports a length prefix of 4 GiB at once, before any body arrives', () => {
    const { sink, seen } = recorder();
    const reader = new FrameReader(limits, () => sink);
    reader.push(frame(0, 0, '', 2 ** 32 - 1));
    expect(seen).toEqual([['oversized', 0, 0, 2 ** 32 - 1]]);
    // What follows is the skipped body, not frames.
    reader.push(frame(0, 0, '{"forged":true}'));
    expect(seen).toHaveLength(1);
  });

  it('calls bytes that are not frames broken, once, and reads nothing after them', () => {
    const { sink, seen } = recorder();
    const reader = new FrameReader(limits, () => sink);
    reader.push(Buffer.concat([frame(0, 0, '{}'), Buffer.from('{"type":"result","id":1,"payload":"1"}\n')]));
    reader.push(frame(0, 0, '{}'));
    expect(seen).toEqual([
      ['frame', 0, 0, '{}'],
      ['broken', 'a frame of unknown kind 112 (bytes that are not frames)'],
    ]);
  });
});

/** Two connected channels over a loopback TCP connection. */
async function channelPair(): Promise<{ left: FrameChannel; right: FrameChannel; server: net.Server }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const { port } = server.address() as net.AddressInfo;
  const client = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => client.once('connect', resolve));
  return { left: new FrameChannel(client, limits), right: new FrameChannel(await accepted, limits), server };
}

describe('FrameChannel', () => {
  it('delivers the frames of a turn in order, large ones measured, and reports the other side closing', async () => {
    const { left, right, server } = await channelPair();
    const { sink, seen } = recorder();
    let arrived: () => void = () => undefined;
    const third = new Promise<void>((resolve) => (arrived = resolve));
    const ended = new Promise<void>((resolve) =>
      right.receive({
        ...sink,
        oversized: (kind, id, length) => {
          sink.oversized(kind, id, length);
          arrived();
        },
        ended: (reason) => resolve(sink.ended(reason)),
      }),
    );
    const large = 'é'.repeat(40_000);
    left.send(0, 0, '{"n":1}');
    left.send(1, 2, '"two"');
    left.send(0, 0, large);
    await third;
    left.close();
    await ended;
    server.close();
    expect(seen).toEqual([
      ['frame', 0, 0, '{"n":1}'],
      ['frame', 1, 2, '"two"'],
      ['oversized', 0, 0, Buffer.byteLength(large)],
      ['ended', 'the channel was closed'],
    ]);
    // A closed channel sends nothing and does not throw.
    left.send(0, 0, '{}');
    expect(left.isClosed).toBe(true);
  });
});
