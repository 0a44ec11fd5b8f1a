/**
 * Process entry: runs one handler module in a process of its own. It imports the module's bundle,
 * describes its routes to the gateway, then runs route functions on request and answers with the
 * result already serialised, so neither a stuck route, a large answer nor a module out of memory can
 * hold up or take down the gateway.
 */
import { Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { HttpError, revivedHttpError } from '../../core/errors.js';
import { Router } from '../../handler-sdk/index.js';
import type { RouteDefinition } from '../../handler-sdk/router.js';
import {
  messageFrame,
  resultFrame,
  type ErrorDescription,
  type FromHandler,
  type HandlerProcessData,
  type RouteDescription,
  type ToHandler,
} from './handler-protocol.js';
import { FrameChannel, type FrameSink } from './frame-channel.js';
import { RouteContext } from './route-context.js';
import { isThenable } from './abort-signal.js';
import type { CallSpan, CallTracer } from './handler-tracing.js';

const { responseLimit, tracing } = JSON.parse(process.argv[2]) as HandlerProcessData;
/** The tracer of calls, once the SDK is loaded (only when the gateway traces). */
let callTracer: CallTracer | undefined;

// The gateway stops this process when it is done with it; should the gateway itself be killed, the
// channel's end or a watchdog thread (which runs even while a route spins) ends the orphan with its process
// group (it leads one): whatever the module started goes too.
const parentPid = process.ppid;
const endGroup = `process.kill(-${process.pid}, 'SIGKILL'); process.kill(${process.pid}, 'SIGKILL');`;
new Worker(`setInterval(() => { if (process.ppid !== ${parentPid}) { ${endGroup} } }, 1000);`, {
  eval: true,
}).unref();
const endHere = () => {
  process.kill(-process.pid, 'SIGKILL');
  process.exit(0);
};

/** fd 3, the channel to the gateway: only the gateway writes to this end, so its frames are not bounded here. */
const channel = new FrameChannel(new Socket({ fd: 3, readable: true, writable: true }), [2 ** 32 - 1]);
const post = (message: FromHandler) => channel.send(messageFrame, 0, JSON.stringify(message));

function describe(error: unknown): ErrorDescription {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  let text: string;
  try {
    text = String(error);
  } catch {
    text = typeof error;
  }
  return { name: 'Error', message: `non-error thrown: ${text}` };
}

/** Answers call `id` with the error it threw; false (the call did not answer), for {@link settled}. */
function fail(id: number, error: unknown): false {
  if (error instanceof HttpError) {
    post({ type: 'http-error', id, ...error.fields(), extra: structuredCloneable(error.extra) });
  } else {
    post({ type: 'failed', id, error: describe(error) });
  }
  return false;
}

/** `extra` fields as JSON: they end up in a JSON body anyway, and anything else would not cross. */
function structuredCloneable(extra: Record<string, unknown>): Record<string, unknown> {
  return Object.keys(extra).length === 0 ? extra : (JSON.parse(JSON.stringify(extra)) as Record<string, unknown>);
}

/**
 * Serialises the route's result here, in the handler's process, and refuses one over the response limit.
 * True when the call answered with its result.
 */
function answer(id: number, value: unknown): boolean {
  let json: string | undefined;
  try {
    json = value === undefined ? undefined : JSON.stringify(value);
  } catch (error) {
    return fail(id, error);
  }
  if (json === undefined) {
    post({ type: 'result', id });
    return true;
  }
  // UTF-8 takes at least one byte per UTF-16 unit and at most three: count bytes only in between.
  const tooLarge =
    json.length > responseLimit || (json.length * 3 > responseLimit && Buffer.byteLength(json) > responseLimit);
  if (tooLarge) {
    post({ type: 'too-large', id, size: Buffer.byteLength(json) });
    return false;
  }
  channel.send(resultFrame, id, json);
  return true;
}

/** Contexts of calls whose promise is pending, so a timeout on the gateway side can abort their signal. */
const pending = new Map<number, RouteContext>();

function call(routes: readonly RouteDefinition[], message: Extract<ToHandler, { type: 'call' }>): void {
  const { id, traceparent } = message;
  const input = message.input;
  if (message.binaryBody !== undefined) input.body = Buffer.from(message.binaryBody, 'base64');
  const ctx = new RouteContext(input, message.auth);
  const route = routes[message.route];
  const span = callTracer && traceparent ? callTracer(`handler ${route.method} ${route.path}`, traceparent) : undefined;
  if (span) ctx.trace = span.trace;
  let result: unknown;
  try {
    result = span ? span.run(() => route.handler(ctx)) : route.handler(ctx);
  } catch (error) {
    return settled(span, fail(id, error));
  }
  if (!isThenable(result)) return settled(span, answer(id, result));
  pending.set(id, ctx);
  Promise.resolve(result).then(
    (value) => {
      pending.delete(id);
      settled(span, answer(id, value));
    },
    (error: unknown) => {
      pending.delete(id);
      settled(span, fail(id, error));
    },
  );
}

/** Ends a traced call's span: an error unless the route answered. */
function settled(span: CallSpan | undefined, answered: boolean): void {
  span?.end(!answered);
}

/** What crosses of a route: the schema as JSON, so a schema JSON cannot carry (a BigInt default) fails the load here.
 * */
function routeDescription(route: RouteDefinition): RouteDescription {
  return {
    method: route.method,
    path: route.path,
    paramNames: [...route.paramNames],
    schema: JSON.parse(JSON.stringify(route.schema)) as RouteDescription['schema'],
  };
}

// A stray rejection or throw from a timer must not end the module's other routes; it is logged.
process.on('unhandledRejection', (reason) => post({ type: 'stray-error', error: describe(reason) }));
process.on('uncaughtException', (error) => post({ type: 'stray-error', error: describe(error) }));

/** Imports the module and describes its routes; the gateway stops the process after a failed load. */
async function load(bundleUrl: string): Promise<readonly RouteDefinition[] | undefined> {
  // Before the module: its top level may make spans of its own.
  if (tracing) callTracer = await startTracingHere(tracing);
  let moduleExports: Record<string, unknown>;
  try {
    moduleExports = (await import(bundleUrl)) as Record<string, unknown>;
  } catch (error) {
    post({ type: 'load-failed', reason: 'threw', error: describe(error) });
    return undefined;
  }
  const router = moduleExports.router;
  if (!(router instanceof Router)) {
    post(
      router === undefined
        ? { type: 'load-failed', reason: 'no-router' }
        : { type: 'load-failed', reason: 'not-a-router' },
    );
    return undefined;
  }
  const descriptions: RouteDescription[] = [];
  for (const route of router.routes) {
    try {
      descriptions.push(routeDescription(route));
    } catch (error) {
      post({
        type: 'load-failed',
        reason: 'bad-schema',
        error: {
          name: 'TypeError',
          message: `${route.method} ${route.path}: the schema is not plain JSON (${(error as Error).message})`,
        },
      });
      return undefined;
    }
  }
  post({ type: 'ready', routes: descriptions });
  return router.routes;
}

/** Loads the SDK in this process, only now: without tracing the process never imports OpenTelemetry. */
async function startTracingHere(settings: NonNullable<HandlerProcessData['tracing']>): Promise<CallTracer> {
  const { startCallTracing } = await import('./handler-tracing.js');
  return startCallTracing(settings);
}

/** Hands the gateway's messages to `take`; the channel's end (the gateway stopped or is gone) ends the process. */
function receive(take: (message: ToHandler) => void): void {
  const sink: FrameSink = {
    frame: (_kind, _id, body) => take(JSON.parse(body.toString()) as ToHandler),
    oversized: endHere,
    broken: endHere,
    ended: endHere,
  };
  channel.receive(sink);
}

/** Runs the module's routes on the calls the gateway sends. */
function serve(routes: readonly RouteDefinition[]): void {
  receive((message) => {
    if (message.type === 'call') call(routes, message);
    else if (message.type === 'abort') pending.get(message.id)?.abort(revivedHttpError(message));
    else if (message.type === 'ping') post({ type: 'pong' });
  });
}

// The gateway starts handler processes ahead of need (Node's start-up is most of a reload's time):
// it is told when this one is booted, and the first message it sends names the module to load.
post({ type: 'booted' });
receive((first) => {
  if (first.type !== 'load') throw new Error(`expected a load message first, got ${first.type}`);
  receive(() => undefined);
  void load(first.bundleUrl).then((routes) => routes && serve(routes));
});
