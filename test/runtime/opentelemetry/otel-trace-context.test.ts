// The `opentelemetry` extra (runtime/opentelemetry/otel-trace-context.ts) with the OpenTelemetry SDK's in-memory
// exporter: our client against `createHttpHandler` on a loopback port, the client's span active around the call,
// the handler's span started in `inTraceContext(ctx.traceContext, …)`. Where the release reserves the keys
// (2026-07-28) it is one trace spanning both; where none does (2025-11-25) nothing crosses, and the handler's span
// starts a trace of its own.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, propagation, trace, type Span } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  connect,
  createHttpHandler,
  httpTransport,
  toNodeListener,
  v2025_11_25,
  v2026_07_28,
} from "../../../generated/index.ts";
import {
  activeTraceContext,
  contextFromTrace,
  inTraceContext,
  openTelemetryTraceContext,
} from "../../../generator/runtime/opentelemetry/otel-trace-context.ts";
import { DISCOVERED } from "../../support/discovered.ts";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const tracer = provider.getTracer("mcp-bindgen-test");
const CLIENT_INFO = { name: "traced-client", version: "1.0.0" };

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
afterEach(() => exporter.reset());

/** What the tool's handler saw: the baggage it was given. */
const heard: (string | undefined)[] = [];
/** The tool's handler: its work is a span, started with the caller's span as parent. */
const toolCall = (ctx: { readonly traceContext: Parameters<typeof inTraceContext>[0] }) =>
  inTraceContext(ctx.traceContext, () =>
    tracer.startActiveSpan("tools/call weather", (span: Span) => {
      heard.push(propagation.getBaggage(context.active())?.getEntry("user")?.value);
      span.end();
      return { content: [{ type: "text" as const, text: "sunny" }] };
    }),
  );

let server: Server;
let url: string;
const handler = createHttpHandler({
  stateless: v2026_07_28.statelessEra({
    "server/discover": () => DISCOVERED as v2026_07_28.DiscoverResult,
    "tools/call": (_params, ctx) => toolCall(ctx),
  }),
  sessions: v2025_11_25.sessionEra({
    initialize: (params) => ({
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "traced-server", version: "1.0.0" },
    }),
    "tools/call": (_params, ctx) => toolCall(ctx),
  }),
  path: "/mcp",
});

beforeAll(async () => {
  server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  handler.close();
  await new Promise((resolve) => server.close(resolve));
});

/** Calls the tool with the client's span active and `user=alice` in its baggage. */
async function tracedCall(release: v2026_07_28.Release | v2025_11_25.Release): Promise<string> {
  const session = await connect(httpTransport(url), {
    releases: [release],
    clientInfo: CLIENT_INFO,
    traceContext: openTelemetryTraceContext(),
  });
  try {
    const baggage = propagation.createBaggage({ user: { value: "alice" } });
    return await context.with(propagation.setBaggage(context.active(), baggage), () =>
      tracer.startActiveSpan("client tools/call", async (span: Span) => {
        const params = { name: "weather", arguments: {} };
        // Each era's request is typed by its release: narrowed one at a time.
        if (session.version === "2026-07-28") await session.request("tools/call", params);
        else await session.request("tools/call", params);
        span.end();
        return span.spanContext().traceId;
      }),
    );
  } finally {
    await session.close();
  }
}

describe("one trace across client and server over HTTP", () => {
  it("2026-07-28: the handler's span is a child of the client's, in the same trace, with the client's baggage", async () => {
    heard.length = 0;
    const traceId = await tracedCall(v2026_07_28.clientRelease());
    const spans = exporter.getFinishedSpans();
    const client = spans.find((span) => span.name === "client tools/call")!;
    const tool = spans.find((span) => span.name === "tools/call weather")!;
    expect(tool.spanContext().traceId).toBe(traceId);
    expect(tool.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(tool.parentSpanContext?.isRemote).toBe(true);
    expect(heard).toEqual(["alice"]);
  });

  it("2025-11-25 reserves no trace keys: nothing crosses, the handler's span is a root of another trace", async () => {
    heard.length = 0;
    const traceId = await tracedCall(v2025_11_25.clientRelease());
    const tool = exporter.getFinishedSpans().find((span) => span.name === "tools/call weather")!;
    expect(tool.spanContext().traceId).not.toBe(traceId);
    expect(tool.parentSpanContext).toBeUndefined();
    expect(heard).toEqual([undefined]);
  });
});

describe("the adapter's parts", () => {
  it("activeTraceContext: undefined outside any span, the active span's traceparent inside one", () => {
    expect(activeTraceContext()).toBeUndefined();
    tracer.startActiveSpan("outer", (span: Span) => {
      const { traceId, spanId } = span.spanContext();
      expect(activeTraceContext()).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
      span.end();
    });
  });

  it("contextFromTrace: no trace context leaves the parent as it is; one names the remote span", () => {
    const parent = context.active();
    expect(contextFromTrace(undefined, parent)).toBe(parent);
    const remote = trace.getSpanContext(
      contextFromTrace({ traceparent: "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01" }, parent),
    );
    expect(remote).toMatchObject({
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "00f067aa0ba902b7",
      isRemote: true,
    });
  });
});
