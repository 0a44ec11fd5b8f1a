/**
 * Tracing inside a handler module's process. Imported by the process only when the gateway's tracing is on
 * (`HandlerProcessData.tracing`), so a process without it never loads OpenTelemetry.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { TracingSettings } from '../../core/settings.js';
import type { HandlerTrace } from '../../handler-sdk/types.js';
import { startTracing } from '../../observability/tracing.js';

/** One call's span in the handler process: what the route sees of it, and how it ends. */
export interface CallSpan {
  trace: HandlerTrace;
  /** Runs the route function with the span active, so the module's own spans and `trace.getActiveSpan()` find it. */
  run<T>(work: () => T): T;
  end(failed: boolean): void;
}

/** Starts the span of one call, a child of the gateway's handler-call span named by `traceparent`. */
export type CallTracer = (name: string, traceparent: string) => CallSpan;

/**
 * Registers the SDK in this process (service name of the gateway with `-handler`, so a trace view tells the two
 * processes apart) and answers the tracer of calls.
 */
export async function startCallTracing(settings: TracingSettings): Promise<CallTracer> {
  await startTracing({ ...settings, serviceName: `${settings.serviceName}-handler` });
  const tracer = trace.getTracer('adaptive-handler');
  const callTracer: CallTracer = (name, traceparent) => {
    const parent = propagation.extract(ROOT_CONTEXT, { traceparent });
    const span = tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
    const active = trace.setSpan(parent, span);
    const { traceId, spanId, traceFlags } = span.spanContext();
    const flags = traceFlags.toString(16).padStart(2, '0');
    return {
      trace: { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${flags}` },
      run: (work) => context.with(active, work),
      end: (failed) => {
        if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      },
    };
  };
  return callTracer;
}
