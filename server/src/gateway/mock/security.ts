import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError, type HttpError } from '../../core/errors.js';
import { isObject } from '../../core/json.js';
import type { SecurityMode } from '../../core/settings.js';
import { LoadError } from '../load-error.js';
import { dereference, resolvePointer } from '../model/json-pointer.js';
import type { CompiledSpec, OperationSpec } from '../model/spec-types.js';

/** Spec extension that turns the mock's security checks on (`enforce`) or off for one spec (`MOCK_SECURITY`
 * otherwise). */
export const securityExtension = 'x-adaptive-security';

/** Whether the mock checks the spec's security requirements: {@link securityExtension}, else the workspace setting. */
export function enforcesSecurity(spec: CompiledSpec, workspace: SecurityMode): boolean {
  const declared = spec.document[securityExtension];
  if (declared === undefined) return workspace === 'enforce';
  if (declared !== 'enforce' && declared !== 'off')
    throw new LoadError(spec.file, `${securityExtension} must be "enforce" or "off"`);
  return declared === 'enforce';
}

/** One scheme of a requirement: whether a request carries its credentials, and what a 401 asks for. */
interface SchemeCheck {
  present: (request: FastifyRequest) => boolean;
  /** What the detail says is missing: `ApiKeyAuth (query parameter apiKey)`. */
  wanted: string;
  /** The `WWW-Authenticate` challenge of an HTTP scheme (`Basic realm="mock"`), none for an API key. */
  challenge?: string;
}

/** The credentials check of one operation: the error to answer when they are missing, else `undefined`. */
export type CredentialsCheck = (request: FastifyRequest, reply: FastifyReply) => HttpError | undefined;

/** Whether the Authorization header uses `scheme` (case-insensitive) with some credentials after it. */
function authorizationUses(scheme: string): (request: FastifyRequest) => boolean {
  const pattern = new RegExp(`^${scheme.replace(/[^\w-]/g, '')}\\s+\\S`, 'i');
  return (request) => typeof request.headers.authorization === 'string' && pattern.test(request.headers.authorization);
}

/** Whether the Cookie header has a non-empty cookie `name`. */
function hasCookie(request: FastifyRequest, name: string): boolean {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return false;
  return header.split(';').some((pair) => {
    const at = pair.indexOf('=');
    return at > 0 && pair.slice(0, at).trim() === name && pair.slice(at + 1).trim() !== '';
  });
}

/** The check of one declared scheme; `undefined` (with a warning) for one the mock cannot check. */
function schemeCheck(name: string, scheme: Record<string, unknown>, warn: (text: string) => void) {
  const bearer = {
    present: authorizationUses('Bearer'),
    wanted: `${name} (Authorization: Bearer)`,
    challenge: 'Bearer',
  };
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return bearer;
  if (scheme.type === 'http' && typeof scheme.scheme === 'string' && scheme.scheme !== '') {
    const kind = scheme.scheme.toLowerCase();
    if (kind === 'bearer') return bearer;
    const label = kind[0].toUpperCase() + kind.slice(1);
    return {
      present: authorizationUses(kind),
      wanted: `${name} (Authorization: ${label})`,
      challenge: kind === 'basic' ? 'Basic realm="mock"' : label,
    };
  }
  if (scheme.type === 'apiKey' && typeof scheme.name === 'string') {
    const key = scheme.name;
    if (scheme.in === 'header') {
      const header = key.toLowerCase();
      return { present: (r: FastifyRequest) => !!r.headers[header], wanted: `${name} (header ${key})` };
    }
    if (scheme.in === 'query')
      return {
        present: (r: FastifyRequest) => !!(r.query as Record<string, unknown> | undefined)?.[key],
        wanted: `${name} (query parameter ${key})`,
      };
    if (scheme.in === 'cookie')
      return { present: (r: FastifyRequest) => hasCookie(r, key), wanted: `${name} (cookie ${key})` };
  }
  warn(`security scheme ${name} (${String(scheme.type)}) cannot be checked by the mock; it needs no credentials`);
  return undefined;
}

/**
 * The credentials check of an operation under enforced security: its effective `security` (its own, else the
 * spec's) is a list of alternatives, each a set of schemes that must all be present; an empty list, or an empty
 * alternative (`{}`), needs none, and so the operation gets no check (`undefined`). Presence only: the mock
 * never verifies a key or a token. Schemes it cannot check (unknown names, mutual TLS) count as present, with a
 * warning in `warnings`.
 */
export function credentialsCheck(
  spec: CompiledSpec,
  operation: OperationSpec,
  warnings: string[],
): CredentialsCheck | undefined {
  const label = `${operation.method} ${operation.path}`;
  const own = resolvePointer(spec.document, operation.pointer);
  const requirement = isObject(own) && Array.isArray(own.security) ? own.security : spec.document.security;
  if (!Array.isArray(requirement) || requirement.length === 0) return undefined;
  const schemes = resolvePointer(spec.document, '#/components/securitySchemes');
  const warn = (text: string) => warnings.push(`${label}: ${text}`);
  const alternatives: SchemeCheck[][] = [];
  for (const alternative of requirement) {
    if (!isObject(alternative) || Object.keys(alternative).length === 0) return undefined;
    const checks: SchemeCheck[] = [];
    for (const name of Object.keys(alternative)) {
      let scheme: unknown;
      try {
        scheme = isObject(schemes) ? dereference(spec.document, schemes[name], '').value : undefined;
      } catch {
        scheme = undefined;
      }
      const check = isObject(scheme) ? schemeCheck(name, scheme, warn) : undefined;
      if (!isObject(scheme)) warn(`security scheme ${name} is not declared in components.securitySchemes; not checked`);
      if (check) checks.push(check);
    }
    if (checks.length === 0) return undefined;
    alternatives.push(checks);
  }
  const wanted = alternatives.map((checks) => checks.map((c) => c.wanted).join(' and ')).join(', or ');
  const challenges = [...new Set(alternatives.flat().flatMap((c) => (c.challenge ? [c.challenge] : [])))];
  return (request, reply) => {
    if (alternatives.some((checks) => checks.every((c) => c.present(request)))) return undefined;
    if (challenges.length > 0) reply.header('www-authenticate', challenges.join(', '));
    return httpError('MOCK_CREDENTIALS_MISSING', [label, wanted]);
  };
}
