import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, waitForSpans } from '../../observability/test-support/otlp-receiver.js';
import { makeWorkspace, removeWorkspace, startServer } from '../../test-support/workspace.js';

// The route answers the trace context its request carries, as handler code reads it.
const echo = `from fastapi import APIRouter, Request
router = APIRouter()

@router.get("/context")
def context(request: Request):
    return {"traceparent": request.headers.get("traceparent")}
`;

const workspace = makeWorkspace({ 'handlers/echo_handler.py': echo });
afterAll(() => removeWorkspace(workspace));

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpan = '00f067aa0ba902b7';
const caller = `00-${traceId}-${callerSpan}-01`;

// In this order: the SDK, once registered in this process, stays (as in a server).
describe('the trace context of a Python handler', () => {
  it("is the caller's header, passed as it came, with tracing off", async () => {
    const app = await startServer(workspace);
    try {
      const response = await app.inject({ url: '/api/adaptive/echo/context', headers: { traceparent: caller } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ traceparent: caller });
    } finally {
      await app.close();
    }
  });

  it("is the gateway's handler-call span with tracing on, a child of the request in the caller's trace", async () => {
    const receiver = await startReceiver();
    const app = await startServer(workspace, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'py' });
    try {
      const response = await app.inject({ url: '/api/adaptive/echo/context', headers: { traceparent: caller } });
      expect(response.statusCode, response.body).toBe(200);
      const seen = response.json<{ traceparent: string }>().traceparent;
      const call = await waitForSpans(() =>
        receiver.spans.find((s) => s.name === 'handler call' && s.traceId === traceId),
      );
      const server = receiver.spans.find((s) => s.traceId === traceId && s.parentSpanId === callerSpan);
      expect(call).toMatchObject({ service: 'py', parentSpanId: server!.spanId });
      expect(seen).toBe(`00-${traceId}-${call!.spanId}-01`);
    } finally {
      await app.close();
      await receiver.close();
    }
  });
});
