/** A response as Prism's harness sees it: the status, headers (names in lower case) and body text. */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Line breaks as `\n`, trailing white space removed: curl's output is compared trimmed. */
export function normalizeBody(body: string): string {
  return body.split(/\r?\n/).join('\n').trimEnd();
}

/**
 * Parses the raw response of an `====expect====` section: `HTTP/1.1 200 OK`, header lines, a blank
 * line, the body. The reason phrase is not kept: it carries no meaning (cases even say `204 OK`).
 */
export function parseHttpResponse(text: string): HttpResponse {
  const lines = text.trim().split(/\r?\n/);
  const statusLine = /^HTTP\/[\d.]+\s+(\d{3})\b/.exec(lines.shift() ?? '');
  if (!statusLine) throw new Error('the expected response has no HTTP status line');
  const headers: Record<string, string> = {};
  while (lines.length > 0) {
    const line = lines.shift()!;
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine[1]), headers, body: normalizeBody(lines.join('\n')) };
}
