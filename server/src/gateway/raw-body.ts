import type { FastifyRequest } from 'fastify';

/** The JSON text of requests whose body was parsed, as it came: the proxy forwards it unchanged. */
const rawBodies = new WeakMap<FastifyRequest, string>();

type TextParser = (request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) => void;

/** Wraps a content-type parser of text bodies so that {@link rawBody} finds the text afterwards. */
export function keepingRawBody(parse: TextParser): TextParser {
  return (request, body, done) => {
    rawBodies.set(request, body);
    parse(request, body, done);
  };
}

/** The body text of a request whose JSON body was parsed, if it had one. */
export function rawBody(request: FastifyRequest): string | undefined {
  return rawBodies.get(request);
}
