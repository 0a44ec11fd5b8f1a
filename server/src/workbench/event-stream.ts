import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventHub, HubEvent } from './event-hub.js';

const heartbeatMs = 15_000;
/** An event stream whose client reads slower than this backlog is closed; EventSource reconnects and replays. */
const maxStreamBacklogBytes = 4 * 1024 * 1024;

function sseFrame(event: HubEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${event.data()}\n\n`;
}

/**
 * The workbench's event streams (Server-Sent Events) of one hub: {@link serve} is the route handler that
 * opens one, replaying what a reconnecting client missed (`Last-Event-ID`); {@link endAll} ends the open
 * ones when the server closes, which would otherwise wait for their clients.
 */
export class EventStreams {
  private readonly open = new Set<FastifyReply>();

  constructor(private readonly hub: EventHub) {}

  /** Opens an event stream on the request's connection (a route handler). */
  readonly serve = (request: FastifyRequest, reply: FastifyReply): void => {
    const lastId = Number(request.headers['last-event-id']);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    raw.write('retry: 1000\n\n');
    for (const event of this.hub.since(Number.isInteger(lastId) ? lastId : 0)) raw.write(sseFrame(event));
    const send = (event: HubEvent) => {
      if (raw.writableLength > maxStreamBacklogBytes) raw.destroy();
      else raw.write(sseFrame(event));
    };
    const unsubscribe = this.hub.subscribe(send);
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), heartbeatMs);
    this.open.add(reply);
    raw.on('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      this.open.delete(reply);
    });
  };

  /** Ends every open stream. */
  endAll(): void {
    for (const reply of this.open) reply.raw.end();
  }
}
