import type { FastifyRequest } from 'fastify';
import type { RecordedExchangeInfo } from '../../contract/index.js';
import type { HttpMethod, OperationSpec, ResponseSpec } from '../model/spec-types.js';
import type { UpstreamAnswer } from './upstream-exchange.js';

/** Bounds of what the proxy keeps for recording. */
export interface RecordingLimits {
  /** Exchanges kept per mount; the oldest goes first. */
  perMount: number;
  /** Body bytes kept per mount; the oldest exchanges go first. */
  bytesPerMount: number;
  /** A larger body is not kept at all (it would not make a readable example). */
  maxBodyBytes: number;
}

export const defaultRecordingLimits: RecordingLimits = {
  perMount: 50,
  bytesPerMount: 2 * 1024 * 1024,
  maxBodyBytes: 256 * 1024,
};

/** An upstream answer kept for recording: what it answered and where in the spec it belongs. */
export interface RecordedExchange extends RecordedExchangeInfo {
  body: Buffer;
}

/** The declared response of `operation` an answer with `status` falls under: exact, then `4XX`, then `default`. */
export function declaredResponse(operation: OperationSpec, status: number): ResponseSpec | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    operation.responses.find((r) => r.key === exact) ??
    operation.responses.find((r) => r.key.toUpperCase() === range) ??
    operation.responses.find((r) => r.key === 'default')
  );
}

/** The declared media type (`application/json`, `application/*`, `*\/*`) an answer's content type falls under. */
export function declaredMediaType(response: ResponseSpec, contentType: string | undefined): string | undefined {
  const essence = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!essence) return undefined;
  const declared = response.mediaTypes.map((m) => m.mediaType);
  const [type] = essence.split('/');
  return (
    declared.find((m) => m.toLowerCase() === essence) ??
    declared.find((m) => m.toLowerCase() === `${type}/*`) ??
    declared.find((m) => m === '*/*')
  );
}

/**
 * The last upstream answers of each proxied mount that match a declared operation, response and media
 * type, kept so that the workbench can turn one into a named example of the spec. Bounded per mount in
 * count and bytes; it outlives reloads (a spec edited meanwhile still gets its proposal).
 */
export class ExchangeRecorder {
  private readonly mounts = new Map<string, { exchanges: RecordedExchange[]; bytes: number }>();
  private nextId = 1;

  constructor(private readonly limits: RecordingLimits = defaultRecordingLimits) {}

  /** Keeps an answer when it fits a declared response with content; returns whether it did. */
  offer(
    spec: { file: string; mount: string },
    operation: OperationSpec,
    request: FastifyRequest,
    answer: UpstreamAnswer,
    violations: number,
  ): boolean {
    if (answer.body.length === 0 || answer.body.length > this.limits.maxBodyBytes) return false;
    const response = declaredResponse(operation, answer.status);
    if (!response) return false;
    const mediaType = declaredMediaType(response, [answer.headers['content-type']].flat()[0]);
    if (mediaType === undefined) return false;
    let kept = this.mounts.get(spec.mount);
    if (!kept) this.mounts.set(spec.mount, (kept = { exchanges: [], bytes: 0 }));
    kept.exchanges.push({
      id: this.nextId++,
      time: Date.now(),
      mount: spec.mount,
      file: spec.file,
      method: operation.method as HttpMethod,
      url: request.url,
      path: operation.path,
      status: answer.status,
      response: response.key,
      mediaType,
      size: answer.body.length,
      violations,
      body: answer.body,
    });
    kept.bytes += answer.body.length;
    while (kept.exchanges.length > this.limits.perMount || kept.bytes > this.limits.bytesPerMount) {
      kept.bytes -= kept.exchanges.shift()!.size;
    }
    return true;
  }

  /** The mount's exchanges, newest first, without their bodies. */
  list(mount: string): RecordedExchangeInfo[] {
    return (this.mounts.get(mount)?.exchanges ?? []).map(({ body: _body, ...info }) => info).reverse();
  }

  /** One exchange of the mount, with its body. */
  get(mount: string, id: number): RecordedExchange | undefined {
    return this.mounts.get(mount)?.exchanges.find((e) => e.id === id);
  }
}
