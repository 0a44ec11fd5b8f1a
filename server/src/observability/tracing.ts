import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { TracingSettings } from '../core/settings.js';
// Types only: the SDK itself is imported by startTracing, when tracing is on.
import type * as TraceSdk from '@opentelemetry/sdk-trace';

/** The tracer of the server's own spans (a no-op one until {@link startTracing} registers the SDK). */
const tracer = () => trace.getTracer('adaptive-workbench');

/** Whether a tracing SDK is registered in this process: instrumentation points check it before doing anything. */
let tracing = false;
/** Flushes and stops the SDK (undefined while tracing is off). */
let stopTracing: (() => Promise<void>) | undefined;

/** True once {@link startTracing} has registered the SDK in this process. */
export const tracingActive = (): boolean => tracing;

/** The sampler the settings name, made from the SDK's classes. */
function samplerOf(settings: TracingSettings, sdk: typeof TraceSdk) {
  const ratio = new sdk.TraceIdRatioBasedSampler(settings.ratio);
  const root = { always_on: new sdk.AlwaysOnSampler(), always_off: new sdk.AlwaysOffSampler(), traceidratio: ratio };
  const name = settings.sampler.replace(/^parentbased_/, '') as keyof typeof root;
  return settings.sampler.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root: root[name] }) : root[name];
}

/**
 * Loads and registers the OpenTelemetry SDK: the OTLP/HTTP exporter (JSON), W3C trace context, an
 * AsyncLocalStorage context manager. Imported only here and only when tracing is configured, so a server
 * without `OTEL_EXPORTER_OTLP_ENDPOINT` never loads the SDK. Idempotent within a process.
 */
export async function startTracing(settings: TracingSettings): Promise<void> {
  if (tracing) return;
  const [sdk, { OTLPTraceExporter }, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, resources] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
    ]);
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': settings.serviceName }),
    sampler: samplerOf(settings, sdk),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: settings.url }) })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracing = true;
  stopTracing = () => provider.forceFlush();
}

/** Sends the spans still queued (the server calls it when it closes; the SDK stays registered). */
export async function flushTraces(): Promise<void> {
  await stopTracing?.();
}

/** Starts the span of one incoming request, child of the caller's `traceparent` when it sent one. */
export function startServerSpan(method: string, headers: Record<string, unknown>): { span: Span; context: Context } {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = tracer().startSpan(
    method,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
    parent,
  );
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends a request's span with its route template and status (an error for 5xx, as the conventions say). */
export function endServerSpan(span: Span, method: string, route: string, status: number): void {
  span.updateName(`${method} ${route}`);
  span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * Runs `work` inside a child span of the active one named `name` (a phase: request validation, the
 * proxy's upstream call, a query's plan). Without tracing it only runs `work`: one boolean check.
 */
export function inSpan<T>(name: string, work: () => T, attributes?: Record<string, string | number>): T {
  if (!tracing) return work();
  return tracer().startActiveSpan(name, { attributes }, (span) => {
    const end = (failed: boolean) => {
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    try {
      const result = work();
      if (result instanceof Promise) {
        result.then(
          () => end(false),
          () => end(true),
        );
      } else end(false);
      return result;
    } catch (error) {
      end(true);
      throw error;
    }
  });
}

/** The W3C `traceparent` of the active span, to hand to another process; undefined without tracing. */
export function currentTraceparent(): string | undefined {
  if (!tracing) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The ids of the active span for a log line; empty without tracing. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = tracing ? trace.getActiveSpan() : undefined;
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
