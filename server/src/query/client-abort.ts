import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';

/**
 * A signal that aborts when the client closes the connection before the answer is sent. The response's
 * `close` is the one to watch: the request's own `close` fires as soon as its body has been read
 * (Node 16 and later), which is why Fastify's `request.signal` cannot tell a client that left.
 */
function clientLeft(reply: FastifyReply): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableEnded) controller.abort();
  };
  reply.raw.once('close', onClose);
  return { signal: controller.signal, dispose: () => reply.raw.off('close', onClose) };
}

/**
 * Runs a synchronous query's `work` with a signal that aborts when the client closes the connection
 * before the answer (the workbench's Cancel, a closed tab, curl stopped with Ctrl+C). The engine
 * interrupts the query on that signal, so its slot is free at once instead of when the query would
 * have finished. Such a stop is logged and answers `QUERY_CANCELLED` (which nobody receives), never a 500.
 */
export async function untilClientLeaves<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  log: Logger,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { signal, dispose } = clientLeft(reply);
  try {
    return await work(signal);
  } catch (error) {
    if (!signal.aborted) throw error;
    log.info({ method: request.method, url: request.url }, 'query cancelled: the client closed the connection');
    throw httpError('QUERY_CANCELLED');
  } finally {
    dispose();
  }
}
