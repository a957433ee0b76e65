// W3C trace context in `_meta` (runtime/core/trace-context.ts), from outside: the checks on its values, and the
// hooks through the generated tree, on the client (`connect`'s `traceContext`, against a fake `fetch`) and on the
// server (`ctx.traceContext` of a release's dispatcher). Only 2026-07-28 reserves the keys: 2025-11-25 carries none.
import { describe, expect, it } from "vitest";
import { connect, httpTransport, v2025_11_25, v2026_07_28 } from "../../../generated/index.ts";
import {
  checkedTraceContext,
  isTraceparent,
  MAX_BAGGAGE,
  MAX_TRACESTATE,
  traceContextFrom,
  type TraceContext,
} from "../../../generator/runtime/core/trace-context.ts";
import { DISCOVERED } from "../../support/discovered.ts";
import { CLIENT_INFO, fakeFetch, INITIALIZED, json, result, URL_ } from "../../support/fake-fetch.ts";

const PARENT = "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01";
const TRACE: TraceContext = { traceparent: PARENT, tracestate: "congo=t61rcWkgMzE", baggage: "userId=alice" };

describe("the values", () => {
  it.each([
    PARENT,
    "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-00",
    // A later version may append fields.
    "01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-extra",
  ])("%s is a traceparent", (value) => {
    expect(isTraceparent(value)).toBe(true);
  });

  it.each([
    ["upper-case hex", PARENT.toUpperCase()],
    ["version ff", "ff" + PARENT.slice(2)],
    ["an all-zero trace id", `00-${"0".repeat(32)}-00f067aa0ba902b7-01`],
    ["an all-zero parent id", `00-0af7651916cd43dd8448eb211c80319c-${"0".repeat(16)}-01`],
    ["version 00 with more fields", `${PARENT}-extra`],
    ["a short trace id", "00-0af7651916cd43dd8448eb211c8031-00f067aa0ba902b7-01"],
    ["a control character in a later version's fields", `01${PARENT.slice(2)}-\n`],
    ["an overlong later version", `01${PARENT.slice(2)}-${"a".repeat(300)}`],
    ["a number", 7],
    ["nothing", undefined],
  ])("%s is no traceparent", (_why, value) => {
    expect(isTraceparent(value)).toBe(false);
  });

  it("tracestate and baggage beyond their bounds, or with control characters, are dropped; the traceparent stays", () => {
    expect(checkedTraceContext(TRACE)).toEqual(TRACE);
    expect(
      checkedTraceContext({
        traceparent: PARENT,
        tracestate: "a".repeat(MAX_TRACESTATE + 1),
        baggage: "b".repeat(MAX_BAGGAGE + 1),
      }),
    ).toEqual({ traceparent: PARENT });
    expect(checkedTraceContext({ traceparent: PARENT, tracestate: "a=1\r\nx: y", baggage: 3 })).toEqual({
      traceparent: PARENT,
    });
    expect(checkedTraceContext({ tracestate: "a=1", baggage: "b=2" })).toBeUndefined();
    expect(checkedTraceContext("00-…")).toBeUndefined();
  });
});

/** A stateless 2026-07-28 server that answers discovery and tools/list; or, with `legacy`, a 2025-11-25 one. */
function server(legacy = false) {
  return fakeFetch(({ method, body }) => {
    if (method !== "POST") return new Response(null, { status: 405 });
    if (body?.id === undefined) return new Response(null, { status: 202 });
    if (body.method === "initialize")
      return json(result(body.id, INITIALIZED("2025-11-25")), 200, { "mcp-session-id": "s" });
    if (legacy) return json(result(body.id, { tools: [] }));
    return body.method === "server/discover"
      ? json(result(body.id, DISCOVERED))
      : json(result(body.id, { resultType: "complete", tools: [] }));
  });
}

const metaOf = (seen: { body: { params?: Record<string, unknown> } | undefined }) =>
  seen.body?.params?.["_meta"] as Record<string, unknown> | undefined;

describe("the client: connect's traceContext", () => {
  it("2026-07-28: the caller's context, asked as each request goes out, is in every request's _meta", async () => {
    const fake = server();
    let asked = 0;
    const session = await connect(httpTransport(URL_, { fetch: fake.fetch }), {
      releases: [v2026_07_28.clientRelease()],
      clientInfo: CLIENT_INFO,
      traceContext: traceContextFrom(() => (asked++, TRACE)),
    });
    await session.request("tools/list", {});
    await session.close();
    expect(fake.seen.map((seen) => metaOf(seen))).toEqual([
      expect.objectContaining({ traceparent: PARENT, tracestate: TRACE.tracestate, baggage: TRACE.baggage }),
      expect.objectContaining({ traceparent: PARENT, tracestate: TRACE.tracestate, baggage: TRACE.baggage }),
    ]);
    expect(asked).toBe(2);
  });

  it("a traceparent the caller wrote into _meta itself is sent as written", async () => {
    const fake = server();
    const own = "00-11111111111111111111111111111111-2222222222222222-01";
    const session = await connect(httpTransport(URL_, { fetch: fake.fetch }), {
      releases: [v2026_07_28.clientRelease()],
      clientInfo: CLIENT_INFO,
      traceContext: traceContextFrom(() => TRACE),
    });
    await session.request("tools/list", { _meta: { traceparent: own } });
    await session.close();
    expect(metaOf(fake.seen[1]!)).toMatchObject({ traceparent: own });
    expect(metaOf(fake.seen[1]!)).not.toHaveProperty("tracestate");
  });

  it.each([
    ["a malformed traceparent", () => ({ traceparent: "00-not-a-trace-01", tracestate: "a=1", baggage: "b=2" })],
    ["no context", () => undefined],
    [
      "a source that throws",
      () => {
        throw new Error("no tracer");
      },
    ],
  ])("%s: the call goes out without trace context", async (_why, source) => {
    const fake = server();
    const session = await connect(httpTransport(URL_, { fetch: fake.fetch }), {
      releases: [v2026_07_28.clientRelease()],
      clientInfo: CLIENT_INFO,
      traceContext: traceContextFrom(source),
    });
    await session.request("tools/list", {});
    await session.close();
    for (const seen of fake.seen) {
      expect(metaOf(seen)).toHaveProperty(["io.modelcontextprotocol/protocolVersion"]);
      expect(Object.keys(metaOf(seen)!).filter((key) => !key.includes("/"))).toEqual([]);
    }
  });

  it("2025-11-25 reserves no trace keys: nothing is sent and the source is never asked", async () => {
    const fake = server(true);
    let asked = 0;
    const session = await connect(httpTransport(URL_, { fetch: fake.fetch }), {
      releases: [v2025_11_25.clientRelease()],
      clientInfo: CLIENT_INFO,
      traceContext: traceContextFrom(() => (asked++, TRACE)),
    });
    await session.request("tools/list", {});
    await session.close();
    const posted = fake.seen.filter((seen) => seen.method === "POST");
    expect(posted.map((seen) => seen.body?.method)).toEqual(["initialize", "notifications/initialized", "tools/list"]);
    expect(posted.map((seen) => metaOf(seen)?.["traceparent"])).toEqual([undefined, undefined, undefined]);
    expect(asked).toBe(0);
  });
});

describe("the server: ctx.traceContext", () => {
  const MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const call = (meta: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "t", arguments: {}, _meta: meta },
  });

  async function seenBy2026(meta: Record<string, unknown>): Promise<TraceContext | undefined> {
    let seen: TraceContext | undefined;
    const dispatcher = v2026_07_28.createServerDispatcher({
      "tools/call": (_params, ctx) => ((seen = ctx.traceContext), { content: [] }),
    });
    const answer = await dispatcher.handle(call({ ...MODERN_META, ...meta }));
    expect(answer).toHaveProperty("result");
    return seen;
  }

  it("2026-07-28: the request's trace context, checked", async () => {
    expect(await seenBy2026({ traceparent: PARENT, tracestate: TRACE.tracestate, baggage: TRACE.baggage })).toEqual(
      TRACE,
    );
    expect(await seenBy2026({ traceparent: PARENT, tracestate: "x".repeat(MAX_TRACESTATE + 1) })).toEqual({
      traceparent: PARENT,
    });
  });

  it("2026-07-28: a malformed traceparent is not handed on, nor its tracestate and baggage", async () => {
    expect(await seenBy2026({ traceparent: "00-xyz-01", tracestate: "a=1", baggage: "b=2" })).toBeUndefined();
    expect(await seenBy2026({ traceparent: { evil: true } })).toBeUndefined();
    expect(await seenBy2026({})).toBeUndefined();
  });

  it("2025-11-25 reserves no trace keys: a traceparent in _meta is the application's own, not ctx.traceContext", async () => {
    let seen: TraceContext | undefined | "unread" = "unread";
    const dispatcher = v2025_11_25.createServerDispatcher({
      "tools/call": (_params, ctx) => ((seen = ctx.traceContext), { content: [] }),
    });
    await dispatcher.handle(call({ traceparent: PARENT }));
    expect(seen).toBeUndefined();
  });
});
