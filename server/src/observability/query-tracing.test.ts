import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { copyExampleWorkspace } from '../query/test-support/query-fixtures.js';
import { removeWorkspace, startServer } from '../test-support/workspace.js';
import { startReceiver, waitForSpans, type ExportedSpan } from './test-support/otlp-receiver.js';

const query = '/api/v1/query';
const callerSpan = '00f067aa0ba902b7';
/** A caller's traceparent with its own trace id, so each test finds its spans apart. */
const traceparent = (traceId: string) => `00-${traceId}-${callerSpan}-01`;

describe('query phase spans, exported over OTLP/HTTP', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let app: FastifyInstance;
  const workspace = copyExampleWorkspace();
  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startServer(workspace, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'queries' });
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
    removeWorkspace(workspace);
  });

  /** Sends `payload` to `url` in the trace `traceId` and answers the spans of that trace once `last` arrived. */
  async function traced(url: string, payload: string | object, traceId: string, last: string): Promise<ExportedSpan[]> {
    const contentType = typeof payload === 'string' ? 'application/sparql-query' : 'application/json';
    const response = await app.inject({
      method: 'POST',
      url: `${query}${url}`,
      payload,
      headers: { traceparent: traceparent(traceId), 'content-type': contentType },
    });
    expect(response.statusCode, response.body).toBe(200);
    await waitForSpans(() => receiver.spans.find((s) => s.traceId === traceId && s.name === last));
    return receiver.spans.filter((s) => s.traceId === traceId);
  }

  it('gives a SQL query its plan, one read per table and the engine, children of the request', async () => {
    const traceId = '11111111111111111111111111111111';
    const sql = 'SELECT count(*) AS n FROM shop.customers c JOIN shop.orders o ON o.customer_id = c.id';
    const spans = await traced('/sql', { query: sql }, traceId, 'query engine');
    const request = spans.find((s) => s.parentSpanId === callerSpan)!;
    expect(request.name).toBe('POST /api/v1/query/sql');
    const children = spans.filter((s) => s.parentSpanId === request.spanId).map((s) => s.name);
    expect(children.sort()).toEqual(['query engine', 'query plan', 'query source read', 'query source read']);
    const reads = spans.filter((s) => s.name === 'query source read');
    const sourceOf = (span: ExportedSpan) => span.attributes.find((a) => a.key === 'query.source')?.value.stringValue;
    expect(reads.map(sourceOf)).toEqual(['shop', 'shop']);
  });

  it('gives SPARQL its translation before the SQL phases', async () => {
    const traceId = '22222222222222222222222222222222';
    const sparql = 'PREFIX ex: <http://example.com/shop#>\nSELECT ?c WHERE { ?c a ex:Customer } LIMIT 2';
    const spans = await traced('/sparql', sparql, traceId, 'query engine');
    const names = new Set(spans.map((s) => s.name));
    for (const phase of ['sparql translation', 'query plan', 'query source read', 'query engine'])
      expect(names).toContain(phase);
  });

  it('gives a natural-language question its translation, holding the queries it checked', async () => {
    const traceId = '33333333333333333333333333333333';
    const spans = await traced(
      '/natural-language',
      { question: 'How many customers are there?' },
      traceId,
      'natural-language translation',
    );
    const translation = spans.find((s) => s.name === 'natural-language translation')!;
    const engine = spans.filter((s) => s.name === 'query engine');
    expect(engine.length).toBeGreaterThan(0);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    // Each query of the question runs within the translation (its check) or after it, in the request.
    for (const span of engine) expect(byId.get(span.parentSpanId!)).toBeDefined();
    expect(engine.some((s) => s.parentSpanId === translation.spanId)).toBe(true);
  });
});
