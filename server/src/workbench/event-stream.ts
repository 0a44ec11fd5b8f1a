import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WorkbenchStreamHello } from '../contract/index.js';
import type { EventHub, HubEvent } from './event-hub.js';

const heartbeatMs = 15_000;
/** An event stream whose client reads slower than this backlog is closed; EventSource reconnects and replays. */
const maxStreamBacklogBytes = 4 * 1024 * 1024;

function sseFrame(instance: string, event: HubEvent): string {
  return `id: ${instance}:${event.id}\nevent: ${event.type}\ndata: ${event.data()}\n\n`;
}

/**
 * The hub event id after which a client's `Last-Event-ID` (`<instance>:<n>`) asks to resume: `n` when it
 * names this hub, else 0 (a new client, or one of a server that has since restarted: it gets everything).
 */
export function resumeAfter(lastEventId: unknown, instance: string): number {
  if (typeof lastEventId !== 'string') return 0;
  const match = /^([0-9a-f]+):(\d{1,15})$/.exec(lastEventId);
  return match && match[1] === instance ? Number(match[2]) : 0;
}

/**
 * The workbench's event streams (Server-Sent Events) of one hub: {@link serve} is the route handler that
 * opens one, says which server start it is (`hello`) and replays what a reconnecting client missed
 * (`Last-Event-ID`); {@link endAll} ends the open ones when the server closes, which would otherwise wait
 * for their clients.
 */
export class EventStreams {
  private readonly open = new Set<FastifyReply>();

  constructor(private readonly hub: EventHub) {}

  /** Opens an event stream on the request's connection (a route handler). */
  readonly serve = (request: FastifyRequest, reply: FastifyReply): void => {
    const { instance } = this.hub;
    const afterId = resumeAfter(request.headers['last-event-id'], instance);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    raw.write('retry: 1000\n\n');
    // First, without an id (it leaves the client's Last-Event-ID alone): which server start this is, and
    // where the replay of what the client missed ends.
    const backlog = this.hub.since(afterId);
    const lastReload = backlog.findLast((event) => event.type === 'reload');
    const hello: WorkbenchStreamHello = {
      instance,
      replayUntil: backlog.at(-1)?.id ?? 0,
      ...(lastReload && { lastReloadAgoMs: Math.floor(performance.now() - lastReload.at) }),
    };
    raw.write(`event: hello\ndata: ${JSON.stringify(hello)}\n\n`);
    for (const event of backlog) raw.write(sseFrame(instance, event));
    const send = (event: HubEvent) => {
      if (raw.writableLength > maxStreamBacklogBytes) raw.destroy();
      else raw.write(sseFrame(instance, event));
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
