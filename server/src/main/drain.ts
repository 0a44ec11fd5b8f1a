import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { httpError } from '../core/errors.js';

/** How often the drain checks whether every connection has gone. */
const pollMs = 50;

const tracked = new WeakMap<Server, Set<Socket>>();

/**
 * Keeps the set of the server's open connections, so that a drain can reach the requests in flight on
 * them. Call once when the server is built: it costs a set entry per connection, nothing per request.
 */
export function trackConnections(server: Server): void {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  tracked.set(server, open);
}

/** Makes Node close the connection once `response` is sent, if its headers have not gone yet. */
function closeAfter(response: ServerResponse | null | undefined): void {
  if (response && !response.headersSent) response.setHeader('connection', 'close');
}

/**
 * Shuts the server down without failing the requests its keep-alive clients send meanwhile.
 *
 * Closing an idle keep-alive connection races with a request the client is sending on it at that
 * moment, which then fails with ECONNRESET. So for `drainMs` the server keeps serving, on open
 * connections and new ones (a load balancer may still route here for a moment), and every answer,
 * those in flight included, carries `Connection: close`: each client learns with its next answer to
 * go, and Node closes the connection once that answer is sent. The drain ends early when no
 * connection is left. Then `app.close()` finishes what is still in flight and closes the connections
 * that stayed idle all along.
 */
export async function drainAndClose(app: FastifyInstance, drainMs: number): Promise<void> {
  const open = tracked.get(app.server) ?? new Set<Socket>();
  // The answer a connection is writing is its `_httpMessage`, Node's field since its first versions.
  for (const socket of open) closeAfter((socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage);
  // Before Fastify's own listener, so that even an answer sent synchronously carries the header.
  app.server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => closeAfter(response));
  const deadline = Date.now() + drainMs;
  while (open.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, pollMs));
  await app.close();
}

/**
 * From now on answers every new request itself, 503 `{detail, code}` with `Connection: close`, instead of
 * handing it to Fastify (whose own 503 while closing has another body): for the server's last moments,
 * while `app.close()` finishes the requests in flight, which Fastify already has.
 */
export function refuseNewRequests(server: Server): void {
  const body = JSON.stringify(httpError('SHUTTING_DOWN').body());
  server.removeAllListeners('request');
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  });
}
