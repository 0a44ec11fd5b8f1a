import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, waitForSpans } from '../../observability/test-support/otlp-receiver.js';
import { tracingActive } from '../../observability/tracing.js';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

// The route answers what its process sees: the trace context in `ctx`, and whether OpenTelemetry registered
// anything in the process's globals (the API keeps its registrations under `Symbol.for('opentelemetry…')`).
const traced = `import { Router, t } from 'adaptive-workbench/handler';
export const router = new Router();
router.get('/orders/{id}', { params: t.Object({ id: t.Integer() }) }, (ctx) => ({
  trace: ctx.trace,
  otel: Object.getOwnPropertySymbols(globalThis).some((s) => String(s.description).startsWith('opentelemetry')),
}));
router.get('/broken', () => { throw new Error('broken'); });
`;

const workspace = makeWorkspace({ 'handlers/traced_handler.ts': traced });
afterAll(() => removeWorkspace(workspace));

const traceId = '0af7651916cd43dd8448eb211c80319c';
const callerSpan = 'b7ad6b7169203331';

// In this order: the SDK, once registered in this process, stays (as in a server).
describe('tracing through a handler module', () => {
  it('is off without an endpoint: ctx.trace is null and the handler process loads no OpenTelemetry', async () => {
    const app = await startServer(workspace);
    try {
      const response = await app.inject({
        url: '/api/adaptive/traced/orders/3',
        headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
      });
      expect(response.json()).toEqual({ trace: null, otel: false });
      expect(tracingActive()).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('exports spans of one trace from the gateway and the handler process, each the child of the last', async () => {
    const receiver = await startReceiver();
    const app = await startServer(workspace, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'shop' });
    try {
      const response = await app.inject({
        url: '/api/adaptive/traced/orders/3',
        headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
      });
      expect(response.statusCode).toBe(200);
      const { trace, otel } = response.json() as {
        trace: { traceId: string; spanId: string; traceparent: string };
        otel: boolean;
      };
      expect(otel).toBe(true);
      expect(trace.traceId).toBe(traceId);
      expect(trace.traceparent).toBe(`00-${traceId}-${trace.spanId}-01`);
      // A failing route's span is marked an error in the handler process.
      expect((await app.inject({ url: '/api/adaptive/traced/broken' })).statusCode).toBe(500);

      const inHandler = await waitForSpans(() =>
        receiver.spans.find((s) => s.service === 'shop-handler' && s.name === 'handler GET /orders/{id}'),
      );
      const server = receiver.spans.find((s) => s.name === 'GET /api/adaptive/traced/orders/{id}');
      const validation = receiver.spans.find((s) => s.name === 'request validation' && s.traceId === traceId);
      const call = receiver.spans.find((s) => s.name === 'handler call' && s.traceId === traceId);
      expect(server).toMatchObject({ service: 'shop', traceId, parentSpanId: callerSpan });
      expect(validation).toMatchObject({ service: 'shop', parentSpanId: server!.spanId });
      expect(call).toMatchObject({ service: 'shop', parentSpanId: server!.spanId });
      expect(inHandler).toMatchObject({ traceId, spanId: trace.spanId, parentSpanId: call!.spanId });
      const broken = await waitForSpans(() =>
        receiver.spans.find((s) => s.service === 'shop-handler' && s.name === 'handler GET /broken'),
      );
      expect(broken).toMatchObject({ status: { code: 2 } });
    } finally {
      await app.close();
      await receiver.close();
    }
  });
});
