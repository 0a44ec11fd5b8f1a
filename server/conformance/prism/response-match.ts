import type { HttpResponse } from './http-response.js';

/** How strictly the body is compared, per the case's `====expect*====` keyword. */
export type ExpectKind = 'expect' | 'expect-loose' | 'expect-keysOnly';

interface XmlElement {
  name: string;
  children: XmlElement[];
}

/** Element names and nesting of an XML text (values and attributes ignored); `undefined` when it is not XML. */
function xmlStructure(text: string): XmlElement | undefined {
  const source = text
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  if (!source.startsWith('<')) return undefined;
  const root: XmlElement = { name: '#document', children: [] };
  const stack: XmlElement[] = [root];
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)(?:\s[^<>]*?)?(\/?)>/g;
  let last = 0;
  for (let match = tag.exec(source); match; match = tag.exec(source)) {
    if (/[<>]/.test(source.slice(last, match.index))) return undefined;
    last = tag.lastIndex;
    const [, closing, name, selfClosing] = match;
    if (closing) {
      if (stack.length < 2 || stack[stack.length - 1].name !== name) return undefined;
      stack.pop();
      continue;
    }
    const element: XmlElement = { name, children: [] };
    stack[stack.length - 1].children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1 || root.children.length !== 1 || source.slice(last).trim() !== '') return undefined;
  return root.children[0];
}

function sameStructure(a: XmlElement, b: XmlElement): boolean {
  return (
    a.name === b.name &&
    a.children.length === b.children.length &&
    a.children.every((child, i) => sameStructure(child, b.children[i]))
  );
}

/**
 * `application/json; charset=utf-8` -> `application/json`. Fastify adds this parameter to JSON media
 * types; it does not change the media type (JSON is UTF-8 by definition, RFC 8259), so an expected
 * `content-type: application/json` is met by it. Any other parameter still has to match.
 */
export function withoutUtf8Charset(contentType: string): string {
  return contentType.replace(/\s*;\s*charset="?utf-8"?\s*$/i, '');
}

const preview = (text: string) => JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}...` : text);

/**
 * Compares a response with a case's expectation the way Prism's harness does: the status; every
 * expected header present with the same value (names case-insensitive; for `content-type` see
 * {@link withoutUtf8Charset}); the body exactly (`expect`),
 * its top-level JSON keys in order (`expect-keysOnly`) or not at all (`expect-loose`). An XML body is
 * compared by element structure, ignoring values. Returns the differences (empty when it matches).
 */
export function compareResponse(expected: HttpResponse, actual: HttpResponse, kind: ExpectKind): string[] {
  const problems: string[] = [];
  if (expected.status !== actual.status) problems.push(`status ${actual.status}, expected ${expected.status}`);
  for (const [name, value] of Object.entries(expected.headers)) {
    const got = actual.headers[name];
    if (got === undefined) problems.push(`header ${name} missing, expected ${JSON.stringify(value)}`);
    else if (got !== value && !(name === 'content-type' && withoutUtf8Charset(got) === value)) {
      problems.push(`header ${name}: ${JSON.stringify(got)}, expected ${JSON.stringify(value)}`);
    }
  }
  const expectedXml = xmlStructure(expected.body);
  if (expectedXml) {
    const actualXml = xmlStructure(actual.body);
    if (!actualXml || !sameStructure(expectedXml, actualXml))
      problems.push(`body ${preview(actual.body)} does not have the XML structure of ${preview(expected.body)}`);
    return problems;
  }
  if (kind === 'expect' && actual.body !== expected.body) {
    problems.push(`body ${preview(actual.body)}, expected ${preview(expected.body)}`);
  } else if (kind === 'expect-keysOnly') {
    try {
      const expectedKeys = Object.keys(JSON.parse(expected.body) as object);
      const actualKeys = Object.keys(JSON.parse(actual.body) as object);
      const common = actualKeys.filter((k) => expectedKeys.includes(k));
      if (common.join('\u0000') !== expectedKeys.join('\u0000'))
        problems.push(
          `body keys ${JSON.stringify(actualKeys)}, expected ${JSON.stringify(expectedKeys)} in that order`,
        );
    } catch {
      problems.push(`body ${preview(actual.body)} is not the JSON object expected`);
    }
  }
  return problems;
}
