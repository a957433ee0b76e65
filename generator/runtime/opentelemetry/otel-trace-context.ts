/**
 * OpenTelemetry's side of the runtime's trace context (core/trace-context.ts): the active context goes out
 * through the registered propagator (`propagation.inject`, W3C Trace Context and Baggage as configured) and a
 * request's context comes back as the parent of the handler's spans (`propagation.extract`). The carrier is
 * the runtime's `TraceContext`, whose members are named as the W3C headers are, so any text-map propagator
 * that writes them fits; what it writes is checked before it is sent.
 */
import { context, propagation, type Context } from "@opentelemetry/api";
import {
  checkedTraceContext,
  traceContextFrom,
  type TraceContext,
  type TraceContextCarrier,
} from "../core/trace-context.js";

/** The active OpenTelemetry context as W3C trace context: undefined without a span (or a registered propagator). */
export function activeTraceContext(): TraceContext | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return checkedTraceContext(carrier);
}

/** For `connect(…, { traceContext: openTelemetryTraceContext() })`: each request carries the context active as it goes out. */
export function openTelemetryTraceContext(): TraceContextCarrier {
  return traceContextFrom(activeTraceContext);
}

/**
 * `parent` (the active context unless given) with the caller's span, from a request's `ctx.traceContext`, as the
 * remote parent: spans started in it join the caller's trace. Without a trace context, `parent` itself.
 */
export function contextFromTrace(
  trace: TraceContext | undefined,
  parent: Context = context.active(),
): Context {
  return trace === undefined ? parent : propagation.extract(parent, trace);
}

/** Runs `work` with the caller's span (`ctx.traceContext`) as the active context's parent: a handler's spans are its children. */
export function inTraceContext<T>(trace: TraceContext | undefined, work: () => T): T {
  return context.with(contextFromTrace(trace), work);
}
