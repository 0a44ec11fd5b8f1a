import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { buildServer } from '../main/app.js';
import { makeWorkspace, removeWorkspace, startServer } from '../test-support/workspace.js';
import { startReceiver } from './test-support/otlp-receiver.js';
import { lineSink, shopItemRoute, shopSpec } from './test-support/shop.js';
import { tracingActive } from './tracing.js';

const workspace = makeWorkspace({ 'specs/shop.yaml': shopSpec });
afterAll(() => removeWorkspace(workspace));

// In this order: the SDK, once registered, stays for the rest of the process (as in a server).
describe('tracing', () => {
  it('is off without an OTLP endpoint, and the SDK is not loaded', async () => {
    const app = await startServer(workspace);
    try {
      expect((await app.inject({ url: '/api/adaptive/shop/items/1' })).statusCode).toBe(200);
      expect(tracingActive()).toBe(false);
    } finally {
      await app.close();
    }
  });

  it("exports the request's span as the child of the caller's traceparent, its trace id in the log lines", async () => {
    const receiver = await startReceiver();
    const lines: Record<string, unknown>[] = [];
    const sink = lineSink(lines);
    const env = { HOT_RELOAD: 'false', LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    const config = loadConfig(env, { workspace });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const app = await buildServer(config, { logger: createLogger('info', sink, () => ({})) });
    try {
      await app.ready();
      await app.gateway.start();
      const response = await app.inject({
        url: '/api/adaptive/shop/items/7',
        headers: { traceparent: `00-${traceId}-${parentId}-01` },
      });
      expect(response.statusCode).toBe(200);
      expect(tracingActive()).toBe(true);
    } finally {
      await app.close();
      await receiver.close();
    }
    const server = receiver.spans.find((s) => s.name === `GET ${shopItemRoute}`);
    expect(server).toMatchObject({ traceId, parentSpanId: parentId });
    expect(server!.attributes).toContainEqual({ key: 'http.route', value: { stringValue: shopItemRoute } });
    expect(lines.find((l) => l.msg === 'access')).toMatchObject({ trace_id: traceId, span_id: server!.spanId });
  });
});
