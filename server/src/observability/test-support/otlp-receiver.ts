import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the OTLP/HTTP JSON exporter sends it, with the `service.name` of the process that sent it. */
export interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  service: string;
}

interface ExportRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: Omit<ExportedSpan, 'service'>[] }[];
  }[];
}

/** An OTLP/HTTP receiver on 127.0.0.1: keeps the spans of every JSON export it is sent. */
export async function startReceiver(): Promise<{ url: string; spans: ExportedSpan[]; close(): Promise<void> }> {
  const spans: ExportedSpan[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const exported = JSON.parse(body) as ExportRequest;
      for (const { resource, scopeSpans } of exported.resourceSpans) {
        const service = resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const scope of scopeSpans) spans.push(...scope.spans.map((span) => ({ ...span, service })));
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Waits until `found` finds what it looks for in the spans received (exports are batched, every few seconds). */
export async function waitForSpans<T>(find: () => T | undefined, withinMs = 20_000): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`the spans looked for did not arrive within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
