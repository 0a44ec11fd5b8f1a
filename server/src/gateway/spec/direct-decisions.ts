import { DecidedLately } from '../../core/decided-lately.js';
import type { TableRoute } from '../mock/table-rules.js';
import type { OperationSpec } from '../model/spec-types.js';
import type { PreparedAnswer } from '../prepared-answer.js';
import type { DirectRequest } from '../route-table.js';

/**
 * What answers a GET that could be answered before Fastify: a prepared answer, the answer handle() prepared for its
 * Accept header once it has (`'plain'`), or Fastify's path (`null`: the request is invalid, or its choice gets an
 * error).
 */
export type DirectDecision = PreparedAnswer | 'plain' | null;

/** Distinct requests (by the values their decision reads) whose decision a route remembers. */
const maxDecided = 64;

/** The longest key remembered: a request with a longer Accept or header value is decided each time it comes. */
const maxKeyLength = 256;

/**
 * One route's decisions on the GETs it could answer before Fastify, remembered by what they read of a request without
 * control parameters: Accept, the path parameters, and the headers that validation and the mock table's rules read (a
 * query rule sees an empty query there, a body rule no body, always). Validating and applying the rules cost more
 * than the rest of such an answer, and real clients send few distinct values; a client sending ever new ones empties
 * the memory rather than growing it ({@link DecidedLately}).
 */
export class DirectDecisions {
  private readonly decided = new DecidedLately<DirectDecision>(maxDecided);
  private readonly pathNames: string[];
  private readonly headerNames: string[];

  /** `validated`: whether the route validates requests (then it reads the operation's header parameters). */
  constructor(operation: OperationSpec, validated: boolean, table: TableRoute | undefined) {
    this.pathNames = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const parameters = validated ? operation.parameters.filter((p) => p.in === 'header').map((p) => p.name) : [];
    const ruled = table?.rules.filter(({ rule }) => rule.in === 'header').map(({ rule }) => rule.key) ?? [];
    this.headerNames = [...new Set([...parameters, ...ruled].map((name) => name.toLowerCase()))];
  }

  /** The decision on `request` (without control parameters), made by `decide` when its values were not seen lately. */
  of(request: DirectRequest, decide: (request: DirectRequest) => DirectDecision): DirectDecision {
    const key = this.keyOf(request);
    if (key === undefined) return decide(request);
    let decision = this.decided.get(key);
    if (decision === undefined) {
      decision = decide(request);
      this.decided.set(key, decision);
    }
    return decision;
  }

  /**
   * The values a decision reads, each on its own line (no path, Accept or header value holds a line break; `\r`
   * alone stands for a missing one); `undefined` when a value is a list or the text too long to be worth keeping.
   */
  private keyOf({ accept, headers, params }: DirectRequest): string | undefined {
    let key = accept ?? '\r';
    for (const name of this.pathNames) key += `\n${params[name]}`;
    for (const name of this.headerNames) {
      const value = headers[name];
      if (value !== undefined && typeof value !== 'string') return undefined;
      key += `\n${value ?? '\r'}`;
    }
    return key.length > maxKeyLength ? undefined : key;
  }
}
