import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches, strongEtag } from './etag.js';

/** Content codings the merged document is served in, besides identity. */
export type ContentCoding = 'br' | 'gzip';

const compressors: Record<ContentCoding, (json: string) => Promise<Buffer>> = {
  // Quality 5: a tenth of the default's (11) time on a document of megabytes, for a few percent in size.
  br: (json) =>
    promisify(zlib.brotliCompress)(json, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: json.length },
    }),
  gzip: (json) => promisify(zlib.gzip)(json, { level: 6 }),
};

/**
 * A JSON document served as is or compressed: its ETag, and each coding made once on first request
 * (off the event loop, in libuv's pool), so a workspace of hundreds of specs costs one compression
 * per reload, not one per request.
 */
export class ServedDocument {
  readonly etag: string;
  private readonly encoded = new Map<ContentCoding, Promise<Buffer>>();

  constructor(readonly json: string) {
    this.etag = strongEtag(json);
  }

  /** The document in `coding`. */
  body(coding: ContentCoding): Promise<Buffer> {
    let body = this.encoded.get(coding);
    if (!body) {
      body = compressors[coding](this.json);
      this.encoded.set(coding, body);
    }
    return body;
  }

  /** Whether an `If-None-Match` header names this version. */
  matches(ifNoneMatch: string | undefined): boolean {
    return etagMatches(ifNoneMatch, this.etag);
  }
}

/**
 * The coding to answer an `Accept-Encoding` header with: the first of `offered` (br, else gzip) that it
 * accepts (q > 0); else none.
 */
export function preferredCoding(
  acceptEncoding: string | undefined,
  offered: readonly ContentCoding[] = ['br', 'gzip'],
): ContentCoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find((m) => m !== null);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const quality = (coding: ContentCoding) => accepted.get(coding) ?? accepted.get('*') ?? 0;
  return offered.find((coding) => quality(coding) > 0);
}

/**
 * Answers `request` with `document`: 304 when the client holds this version (`If-None-Match`), else the
 * document in the coding the client prefers, with its ETag.
 */
export async function sendServedDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  document: ServedDocument,
): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8').header('etag', document.etag).header('vary', 'accept-encoding');
  if (document.matches(request.headers['if-none-match'])) return reply.code(304).send();
  const coding = preferredCoding(request.headers['accept-encoding']);
  if (coding === undefined) return reply.send(document.json);
  return reply.header('content-encoding', coding).send(await document.body(coding));
}
