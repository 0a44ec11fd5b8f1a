/** Whether a change breaks clients built on the old version of a spec. */
export type ChangeVerdict = 'breaking' | 'non-breaking';

/** Which side of an exchange a schema describes: narrowing a request or widening a response breaks clients. */
export type Direction = 'request' | 'response';

const b = 'breaking';
const n = 'non-breaking';

/** A verdict for both directions, or one per direction (request side, response side). */
type KindVerdict = ChangeVerdict | { request: ChangeVerdict; response: ChangeVerdict };

/** Narrowing what is accepted: breaks senders (request), not receivers (response). */
const narrowing = { request: b, response: n } as const;
/** Widening what may come: breaks receivers (response), not senders (request). */
const widening = { request: n, response: b } as const;

/**
 * Every change kind the diff reports, with its verdict. A schema kind's verdict depends on the direction: a
 * request schema that accepts less breaks the clients that send it, a response schema that may return more
 * breaks the clients that read it.
 */
export const changeKinds = {
  'path-removed': b,
  'path-added': n,
  'operation-removed': b,
  'operation-added': n,
  'operation-id-changed': n,
  'operation-deprecated': n,
  'server-url-changed': b,
  'server-removed': b,
  'server-added': n,
  'security-added': b,
  'security-removed': n,
  'security-changed': b,
  'security-alternative-added': n,
  'parameter-removed': b,
  'parameter-added': n,
  'parameter-added-required': b,
  'parameter-made-required': b,
  'parameter-made-optional': n,
  'parameter-location-changed': b,
  'parameter-deprecated': n,
  'request-body-added': n,
  'request-body-added-required': b,
  'request-body-removed': b,
  'request-body-made-required': b,
  'request-body-made-optional': n,
  'request-media-type-removed': b,
  'request-media-type-added': n,
  'response-status-removed': b,
  'response-status-added': n,
  'response-media-type-removed': b,
  'response-media-type-added': n,
  'response-header-removed': b,
  'response-header-added': n,
  'type-changed': b,
  'type-narrowed': narrowing,
  'type-widened': widening,
  'nullable-removed': narrowing,
  'nullable-added': widening,
  'format-changed': b,
  'enum-value-removed': narrowing,
  'enum-value-added': widening,
  'enum-added': narrowing,
  'enum-removed': widening,
  'property-removed': { request: n, response: b },
  'property-added': n,
  'property-added-required': narrowing,
  'property-made-required': narrowing,
  'property-made-optional': widening,
  'additional-properties-disallowed': narrowing,
  'maxLength-lowered': narrowing,
  'maxLength-raised': widening,
  'minLength-raised': narrowing,
  'minLength-lowered': widening,
  'maximum-lowered': narrowing,
  'maximum-raised': widening,
  'minimum-raised': narrowing,
  'minimum-lowered': widening,
  'maxItems-lowered': narrowing,
  'maxItems-raised': widening,
  'minItems-raised': narrowing,
  'minItems-lowered': widening,
  'pattern-added': narrowing,
  'pattern-changed': b,
  'pattern-removed': widening,
  'default-changed': { request: b, response: n },
  'deprecated-added': n,
  'oneOf-branch-removed': narrowing,
  'oneOf-branch-added': widening,
  'anyOf-branch-removed': narrowing,
  'anyOf-branch-added': widening,
  'allOf-changed': b,
} as const satisfies Record<string, KindVerdict>;

/** One of {@link changeKinds}. */
export type ChangeKind = keyof typeof changeKinds;

/** The verdict of `kind` for a schema seen in `direction` (kinds outside schemas have one verdict). */
export function verdictOf(kind: ChangeKind, direction: Direction = 'request'): ChangeVerdict {
  const verdict: KindVerdict = changeKinds[kind];
  return typeof verdict === 'string' ? verdict : verdict[direction];
}
