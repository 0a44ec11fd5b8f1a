import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP server on 127.0.0.1 that accepts every connection and never writes a byte: a source that is
 * "up" but never answers (a Redis in a long BGSAVE, a stuck proxy, a half-open connection). It keeps
 * count of the connections still open, so a test can check that a client destroyed its socket.
 */
export class BlackHole {
  private readonly sockets = new Set<net.Socket>();
  private readonly server = net.createServer((socket) => {
    this.accepted++;
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
    // Read (and drop) what the client sends: only a reading socket notices that the client closed it.
    socket.resume();
  });
  /** Connections accepted since the start. */
  accepted = 0;
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Connections the clients have not closed yet. */
  get open(): number {
    return this.sockets.size;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The `sources:` entries of hung-sources.yaml (one source per connector) on the black hole at `port`. */
export function hungSourceEntries(port: number): string {
  return fs
    .readFileSync(new URL('./hung-sources.yaml', import.meta.url), 'utf8')
    .replaceAll('${HUNG_PORT}', String(port));
}
