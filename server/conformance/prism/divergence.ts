import type { HttpResponse } from './http-response.js';
import { isObject } from '../../src/core/json.js';

type Json = Record<string, unknown>;

/** Facts about a failed case that the rules below look at. */
export interface FailedCase {
  /** The case's spec as a plain value (undefined when it did not parse). */
  spec: unknown;
  method: string;
  requestHeaders: Record<string, string>;
  requestHasBody: boolean;
  expected: HttpResponse;
  actual: HttpResponse;
}

function declaresSecurity(spec: unknown): boolean {
  if (!isObject(spec)) return false;
  if (Array.isArray(spec.security) && spec.security.length > 0) return true;
  const paths = isObject(spec.paths) ? Object.values(spec.paths) : [];
  return paths.some(
    (item) =>
      isObject(item) &&
      Object.values(item).some((op) => isObject(op) && Array.isArray(op.security) && op.security.length > 0),
  );
}

function operations(spec: unknown): Array<{ method: string; operation: Json }> {
  const found: Array<{ method: string; operation: Json }> = [];
  const paths = isObject(spec) && isObject(spec.paths) ? Object.values(spec.paths) : [];
  for (const item of paths) {
    if (!isObject(item)) continue;
    for (const [key, operation] of Object.entries(item))
      if (isObject(operation)) found.push({ method: key.toUpperCase(), operation });
  }
  return found;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The keys of a JSON object body, else the element names of an XML body (in order, repeated as they occur). */
function fieldNames(body: string, json: unknown): string[] {
  if (isObject(json)) return Object.keys(json);
  return [...body.matchAll(/<([\w:.-]+)[\s/>]/g)].map((match) => match[1]);
}

const isJsonType = (contentType: string | undefined) => /^application\/([\w.-]+\+)?json\b/i.test(contentType ?? '');

/**
 * The likely cause of a difference, from rules over observable facts only; each names the design
 * decision it follows (issue 2, DESIGN.md, the gateway's modules) or says that it is a gap.
 * `undefined` when no rule applies.
 */
export function likelyCause(failure: FailedCase): string | undefined {
  const { expected, actual, spec, method } = failure;
  const declared = operations(spec);
  if (expected.status === 422 && actual.status === 400) {
    return (
      'design: the operation declares no 422 or 400 response, so validation keeps its 400 {detail, code, errors} ' +
      '(docs/mocking.md, Errors the spec declares); Prism answers 422 problem+json'
    );
  }
  if (expected.status === 401 && declaresSecurity(spec)) {
    return (
      "gap: the mock checks the spec's security for the presence of credentials only (MOCK_SECURITY=enforce); " +
      'Prism also checks their form'
    );
  }
  if ((method === 'OPTIONS' || method === 'HEAD' || method === 'TRACE') && declared.some((o) => o.method === method)) {
    return (
      `scope: spec operations for ${method} are not served (issue 2 lists GET, POST, PUT, DELETE, PATCH; ` +
      `HEAD answers as GET, OPTIONS is the CORS preflight)`
    );
  }
  if (method === 'HEAD' && expected.status === 405 && actual.status < 300) {
    return (
      "design: HEAD is answered as GET, with GET's headers and no body (RFC 9110 §9.3.2); " +
      'Prism answers 405 when the spec has no head operation'
    );
  }
  if (expected.headers['content-type'] === 'application/problem+json' && expected.status === actual.status) {
    return 'deliberate: error bodies are {detail} as application/json (issue 2: every error body is {detail})';
  }
  const accept = failure.requestHeaders.accept;
  const expectedType = expected.headers['content-type'];
  if (
    expectedType &&
    !isJsonType(expectedType) &&
    isJsonType(actual.headers['content-type']) &&
    (accept === undefined || accept.trim() === '*/*')
  ) {
    return (
      'design: with Accept */* (or none) the gateway prefers a JSON media type (content-negotiation.ts); ' +
      'Prism takes the first declared one'
    );
  }
  if (/^\s*</.test(expected.body) && /xml/.test(actual.headers['content-type'] ?? '') && !/^\s*</.test(actual.body)) {
    return 'gap: an object example is sent as JSON text under an XML media type (no XML serialisation)';
  }
  const expectedJson = parseJson(expected.body);
  const actualJson = parseJson(actual.body);
  const expectedNames = fieldNames(expected.body, expectedJson);
  const actualNames = fieldNames(actual.body, actualJson);
  if (
    expected.status === actual.status &&
    actualNames.length < expectedNames.length &&
    actualNames.every((name) => expectedNames.includes(name))
  ) {
    return (
      'sampling: a dynamic answer has each optional property half of the time (compiled-generator.ts); ' +
      "Prism's json-schema-faker fills every one"
    );
  }
  if (
    expected.status === actual.status &&
    isObject(expectedJson) &&
    isObject(actualJson) &&
    Object.keys(expectedJson).join() === Object.keys(actualJson).join()
  ) {
    return "sampling: same keys, different generated values or depth (openapi-sampler vs Prism's json-schema-sampler)";
  }
  return undefined;
}
