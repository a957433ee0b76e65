import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as batching from "../../../generated/2025-03-26/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";
import {
  createDispatcher,
  type DispatchNotification,
  type DispatchResponse,
  type DispatchSpec,
} from "../../../generator/runtime/core/dispatcher.ts";
import { RpcError } from "../../../generator/runtime/core/rpc-error.ts";

// The specs the per-release emitters write, spelled out here for the two eras: the core is tested
// on its own, over the real parse and validators of one legacy and one modern release.
const codes = { invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internalError: -32603 };
const cancel = { method: "notifications/cancelled", requestIdParam: "requestId", notCancellable: ["initialize"] };
const progress = { method: "notifications/progress", tokenParam: "progressToken", metaKey: "progressToken" };

const LEGACY: DispatchSpec<false> = {
  version: "2025-11-25",
  batches: false,
  requests: legacy.CLIENT_REQUEST_METHODS,
  notifications: legacy.CLIENT_NOTIFICATION_METHODS,
  codes,
  cancel,
  progress,
  requestMeta: null,
  resultType: null,
  unreadableId: "null",
  validate: (message) => legacy.validateMessage(message),
};

const MODERN: DispatchSpec<false> = {
  version: "2026-07-28",
  batches: false,
  requests: modern.CLIENT_REQUEST_METHODS,
  notifications: modern.CLIENT_NOTIFICATION_METHODS,
  codes,
  cancel,
  progress,
  requestMeta: {
    protocolVersion: "io.modelcontextprotocol/protocolVersion",
    clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
    required: ["io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/protocolVersion"],
    unsupportedProtocolVersion: -32022,
    missingRequiredClientCapability: -32021,
  },
  resultType: { key: "resultType", complete: "complete" },
  unreadableId: "omit",
  validate: (message) => modern.validateMessage(message),
};

// 2025-03-26, the one release whose messages may come in JSON-RPC batches.
const BATCHING: DispatchSpec<true> = {
  ...LEGACY,
  version: "2025-03-26",
  batches: { notBatchable: ["initialize"] },
  requests: batching.CLIENT_REQUEST_METHODS,
  notifications: batching.CLIENT_NOTIFICATION_METHODS,
  validate: (message) => batching.validateMessage(message),
};

const meta = (extra: object = {}) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  ...extra,
});
const modernCall = (id: number | string, params: object = {}, extraMeta: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", arguments: {}, ...params, _meta: meta(extraMeta) },
});
const legacyCall = (id: number | string, params: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", ...params },
});
const tools = (text: string) => ({ content: [{ type: "text", text }] });

const eras = [
  { era: "legacy", spec: LEGACY, call: legacyCall },
  { era: "modern", spec: MODERN, call: modernCall },
] as const;

function errorOf(
  response: DispatchResponse | undefined,
): { code: number; message: string; data?: unknown } | undefined {
  return response !== undefined && "error" in response ? response.error : undefined;
}

describe.each(eras)("dispatcher core, $era", ({ spec, call }) => {
  it("answers a request with its handler's result under the request's id", async () => {
    const d = createDispatcher(spec, { "tools/call": (params: { name: string }) => tools(params.name) });
    const response = await d.handle(call("a", { name: "echo" }));
    expect(response).toMatchObject({ jsonrpc: "2.0", id: "a", result: { content: [{ type: "text", text: "echo" }] } });
  });

  it("takes JSON text as well as an object", async () => {
    const d = createDispatcher(spec, { "tools/call": () => tools("x") });
    expect(await d.handle(JSON.stringify(call(7)))).toMatchObject({ id: 7, result: { content: [{ text: "x" }] } });
  });

  it("-32601 for a method without a handler, and for a method the other side answers", async () => {
    const d = createDispatcher(spec, {});
    expect(errorOf(await d.handle(call(1)))?.code).toBe(-32601);
    const d2 = createDispatcher(spec, { "elicitation/create": () => ({}) });
    const wrongSide = {
      ...call(2),
      method: "elicitation/create",
      params: { ...call(2).params, message: "m", requestedSchema: { type: "object", properties: {} } },
    };
    expect(errorOf(await d2.handle(wrongSide))?.code).toBe(-32601);
  });

  it("a handler table with inherited keys does not route to Object.prototype", async () => {
    const d = createDispatcher(spec, {});
    for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const response = await d.handle({ ...call(3), method });
      expect(errorOf(response)?.code, method).toBe(-32601);
    }
  });

  it("-32602 naming the pointer when params do not fit the schema; validate: false lets them through", async () => {
    const d = createDispatcher(spec, { "tools/call": () => tools("ran") });
    const bad = call(4, { name: 42 });
    const error = errorOf(await d.handle(bad));
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain("/params/name");
    const trusting = createDispatcher(spec, { "tools/call": () => tools("ran") }, { validate: false });
    expect(await trusting.handle(bad)).toMatchObject({ id: 4, result: { content: [{ text: "ran" }] } });
  });

  it("throw new RpcError(code, message, data) answers with exactly that error", async () => {
    const d = createDispatcher(spec, {
      "tools/call": () => {
        throw new RpcError(-32042, "needs a URL", { url: "https://example.com" });
      },
    });
    expect(await d.handle(call(5))).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32042, message: "needs a URL", data: { url: "https://example.com" } },
    });
  });

  it("any other throw or rejection is -32603 with a generic message; onError sees the original", async () => {
    const seen: unknown[] = [];
    const secret = new Error("db password is hunter2");
    for (const handler of [
      () => {
        throw secret;
      },
      () => Promise.reject(secret),
      () => null,
      () => "not an object",
    ]) {
      const d = createDispatcher(
        spec,
        { "tools/call": handler },
        { onError: (e, info) => seen.push([e, info.method, info.id]) },
      );
      const response = await d.handle(call(6));
      expect(response).toEqual({ jsonrpc: "2.0", id: 6, error: { code: -32603, message: "Internal error" } });
      expect(JSON.stringify(response)).not.toContain("hunter2");
    }
    expect(seen[0]).toEqual([secret, "tools/call", 6]);
    expect(seen).toHaveLength(4);
  });

  it("an onError that throws changes nothing", async () => {
    const d = createDispatcher(
      spec,
      {
        "tools/call": () => {
          throw new Error("x");
        },
      },
      {
        onError: () => {
          throw new Error("y");
        },
      },
    );
    expect(errorOf(await d.handle(call(8)))?.code).toBe(-32603);
  });

  it("notifications go to their handler and get no response; unknown ones are ignored", async () => {
    const got: unknown[] = [];
    const d = createDispatcher(spec, {
      "notifications/cancelled": (params: unknown, ctx: { method: string }) => void got.push([params, ctx.method]),
    });
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } };
    expect(await d.handle(note)).toBeUndefined();
    expect(got).toEqual([[{ requestId: 99 }, "notifications/cancelled"]]);
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/unknown" })).toBeUndefined();
  });

  it("a notification handler that throws is reported, never answered", async () => {
    const seen: unknown[] = [];
    const d = createDispatcher(
      spec,
      {
        "notifications/cancelled": () => {
          throw new Error("boom");
        },
      },
      { onError: (e) => seen.push(e) },
    );
    expect(
      await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
    ).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it("notifications/cancelled aborts ctx.signal of the matching request, which then gets no response", async () => {
    let signal: AbortSignal | undefined;
    const d = createDispatcher(spec, {
      "tools/call": (_params: unknown, ctx: { signal: AbortSignal }) => {
        signal = ctx.signal;
        return new Promise(() => undefined);
      },
    });
    const pending = d.handle(call("slow"));
    await new Promise((r) => setTimeout(r, 0));
    expect(signal?.aborted).toBe(false);
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "other" } });
    expect(signal?.aborted).toBe(false);
    await d.handle({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "slow", reason: "user" },
    });
    expect(signal?.aborted).toBe(true);
    expect(await pending).toBeUndefined();
  });

  it("a cancelled request whose handler never read ctx.signal gets no response, and finds it aborted when it reads it later", async () => {
    let ctxOf: { signal: AbortSignal } | undefined;
    const d = createDispatcher(spec, {
      "tools/call": (_params: unknown, ctx: { signal: AbortSignal }) => {
        ctxOf = ctx;
        return new Promise(() => undefined);
      },
    });
    const pending = d.handle(call("quiet"));
    await new Promise((r) => setTimeout(r, 0));
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "quiet" } });
    expect(await pending).toBeUndefined();
    expect(ctxOf?.signal.aborted).toBe(true);
    expect(ctxOf?.signal).toBeInstanceOf(AbortSignal);
  });

  it("a cancel reaches only the same peer's request: ids are unique per peer, not per dispatcher", async () => {
    const signals = new Map<string, AbortSignal>();
    const d = createDispatcher<{ session: string }>(
      spec,
      {
        "tools/call": (_params: unknown, ctx: { signal: AbortSignal; context: { session: string } }) => {
          signals.set(ctx.context.session, ctx.signal);
          return new Promise(() => undefined);
        },
      },
      { peerOf: (context) => context.session },
    );
    void d.handle(call(1), { session: "a" });
    void d.handle(call(1), { session: "b" });
    await new Promise((r) => setTimeout(r, 0));
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, { session: "a" });
    expect(signals.get("a")?.aborted).toBe(true);
    expect(signals.get("b")?.aborted).toBe(false);
  });

  it("the signal given to handle (an HTTP stream closing) cancels too", async () => {
    const outer = new AbortController();
    const d = createDispatcher(spec, {
      "tools/call": (_p: unknown, ctx: { signal: AbortSignal }) =>
        new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(tools("late")))),
    });
    const pending = d.handle(call(9), undefined, outer.signal);
    outer.abort();
    expect(await pending).toBeUndefined();
  });

  it("ctx carries id, method, _meta and the caller's context; notify goes to send with that context until the answer", async () => {
    const sent: [DispatchNotification, unknown][] = [];
    let late: (() => void) | undefined;
    const d = createDispatcher(
      spec,
      {
        "tools/call": (
          _params: unknown,
          ctx: { id: unknown; method: string; _meta: unknown; context: unknown; notify(m: string, p?: object): void },
        ) => {
          ctx.notify("notifications/message", { level: "info", data: "working" });
          late = () => ctx.notify("notifications/message", { level: "info", data: "too late" });
          return tools(JSON.stringify([ctx.id, ctx.method, ctx.context]));
        },
      },
      { send: (message, context) => sent.push([message, context]) },
    );
    const response = await d.handle(call(10), { user: "u1" });
    expect(response).toMatchObject({
      result: { content: [{ text: JSON.stringify([10, "tools/call", { user: "u1" }]) }] },
    });
    late!();
    expect(sent).toEqual([
      [{ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }, { user: "u1" }],
    ]);
  });

  it("ctx.progress exists only when the request carried a progress token, and sends it back", async () => {
    const sent: DispatchNotification[] = [];
    const seen: boolean[] = [];
    const d = createDispatcher(
      spec,
      {
        "tools/call": (
          _params: unknown,
          ctx: { progress: ((u: { progress: number; total?: number }) => void) | undefined },
        ) => {
          seen.push(ctx.progress !== undefined);
          ctx.progress?.({ progress: 1, total: 2 });
          return tools("done");
        },
      },
      { send: (message) => sent.push(message) },
    );
    await d.handle(call(11));
    const withToken = call(12) as { params: { _meta?: object } };
    withToken.params._meta = { ...withToken.params._meta, progressToken: "tok" };
    await d.handle(withToken);
    expect(seen).toEqual([false, true]);
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1, total: 2, progressToken: "tok" } },
    ]);
  });

  it("a send that throws is reported and does not fail the request", async () => {
    const seen: unknown[] = [];
    const d = createDispatcher(
      spec,
      {
        "tools/call": (_p: unknown, ctx: { notify(m: string): void }) => {
          ctx.notify("notifications/tools/list_changed");
          return tools("ok");
        },
      },
      {
        send: () => {
          throw new Error("socket closed");
        },
        onError: (e) => seen.push(e),
      },
    );
    expect(await d.handle(call(13))).toMatchObject({ result: { content: [{ text: "ok" }] } });
    expect(seen).toHaveLength(1);
  });

  it("malformed input: -32700 / -32600 with the id when it can be read, else null (or no id where the schema says so); responses are never answered", async () => {
    const d = createDispatcher(spec, {});
    const unknownId = spec.unreadableId === "null" ? { id: null } : {};
    const unreadable = async (input: unknown, code: number) => {
      const response = await d.handle(input);
      expect(response).toEqual({ jsonrpc: "2.0", ...unknownId, error: { code, message: expect.any(String) } });
    };
    await unreadable("{not json", -32700);
    await unreadable("[]", -32600);
    // Neither release has batches: an array of messages is one invalid request.
    await unreadable([call(1)], -32600);
    await unreadable(JSON.stringify([call(1)]), -32600);
    await unreadable({ jsonrpc: "2.0", id: null, method: "ping" }, -32600);
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    await unreadable(cyclic, -32600);
    await unreadable(10n, -32600);
    expect(await d.handle({ jsonrpc: "2.0", id: 5, method: 3 })).toMatchObject({ id: 5, error: { code: -32600 } });
    expect(await d.handle({ jsonrpc: "2.0", result: {} })).toBeUndefined();
    expect(await d.handle({ jsonrpc: "2.0", id: 1, result: {} })).toBeUndefined();
    // A notification gets no reply even when its params are malformed (JSON-RPC 2.0 §4.1).
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: [] })).toBeUndefined();
    expect(await d.handle('{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}')).toBeUndefined();
    // Params by position make a valid JSON-RPC request whose params MCP refuses; a scalar makes an invalid request.
    expect(await d.handle({ jsonrpc: "2.0", id: 7, method: "ping", params: [1] })).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: expect.any(String) },
    });
    expect(await d.handle('{"jsonrpc":"2.0","id":"s","method":"ping","params":null}')).toEqual({
      jsonrpc: "2.0",
      id: "s",
      error: { code: -32600, message: expect.any(String) },
    });
  });
});

describe("dispatcher core, modern rules", () => {
  it("a request without the required _meta keys gets -32602 naming them", async () => {
    const d = createDispatcher(MODERN, { "tools/call": () => tools("x") });
    const response = await d.handle({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    });
    expect(errorOf(response)).toMatchObject({
      code: -32602,
      data: { missing: ["io.modelcontextprotocol/clientCapabilities"] },
    });
    expect(
      errorOf(await d.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo" } }))?.code,
    ).toBe(-32602);
    // Checked before validation: a trusted peer still gets the spec's error.
    const trusting = createDispatcher(MODERN, { "tools/call": () => tools("x") }, { validate: false });
    expect(
      errorOf(await trusting.handle({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo" } }))?.code,
    ).toBe(-32602);
  });

  it("an unsupported protocolVersion gets -32022 listing the supported versions", async () => {
    const d = createDispatcher(
      MODERN,
      { "tools/call": () => tools("x") },
      { supportedVersions: ["2026-07-28", "2027-01-01"] },
    );
    const response = await d.handle(modernCall(1, {}, { "io.modelcontextprotocol/protocolVersion": "1999-01-01" }));
    expect(errorOf(response)).toEqual({
      code: -32022,
      message: "Unsupported protocol version",
      data: { requested: "1999-01-01", supported: ["2026-07-28", "2027-01-01"] },
    });
    const accepted = await d.handle(modernCall(2, {}, { "io.modelcontextprotocol/protocolVersion": "2027-01-01" }));
    expect(accepted).toMatchObject({ result: {} });
  });

  it("ctx.requireClientCapability answers -32021 naming what the request's clientCapabilities lack", async () => {
    const d = createDispatcher(MODERN, {
      "tools/call": (_p: unknown, ctx: { requireClientCapability(c: string | object): void }) => {
        ctx.requireClientCapability("elicitation");
        ctx.requireClientCapability({ elicitation: { url: {} } });
        return tools("allowed");
      },
    });
    expect(errorOf(await d.handle(modernCall(1)))).toEqual({
      code: -32021,
      message: "Missing required client capability",
      data: { requiredCapabilities: { elicitation: {} } },
    });
    const formOnly = await d.handle(
      modernCall(2, {}, { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } }),
    );
    expect(errorOf(formOnly)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    const both = await d.handle(
      modernCall(3, {}, { "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {}, url: {} } } }),
    );
    expect(both).toMatchObject({ result: { content: [{ text: "allowed" }] } });
  });

  it("results get resultType complete unless the handler chose another", async () => {
    const d = createDispatcher(MODERN, {
      "tools/call": (params: { name: string }) =>
        params.name === "ask" ? { resultType: "input_required", requestState: "s" } : tools("t"),
    });
    expect(await d.handle(modernCall(1))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { ...tools("t"), resultType: "complete" },
    });
    expect(await d.handle(modernCall(2, { name: "ask" }))).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { resultType: "input_required", requestState: "s" },
    });
  });

  it("legacy results are left as the handler wrote them", async () => {
    const d = createDispatcher(LEGACY, { "tools/call": () => tools("t") });
    expect(await d.handle(legacyCall(1))).toEqual({ jsonrpc: "2.0", id: 1, result: tools("t") });
  });
});

describe.each(eras)("dispatcher core never throws and answers each request once, $era", ({ spec, call }) => {
  const handlers = {
    "tools/call": (params: { name?: unknown }) => {
      if (params.name === "throw") throw new Error("x");
      if (params.name === "rpc") throw new RpcError(-32000, "y");
      return tools("ok");
    },
    ping: () => ({}),
    "notifications/cancelled": () => undefined,
  };
  const d = createDispatcher(spec, handlers, { onError: () => undefined });
  const id = fc.oneof(fc.string(), fc.integer());

  /** A request is answered once with its own id; anything else gets nothing or an error with a null or readable id. */
  async function check(input: unknown): Promise<void> {
    const response = await d.handle(input);
    const value = typeof input === "string" ? safeParse(input) : input;
    const isRequest =
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      (value as { jsonrpc?: unknown }).jsonrpc === "2.0" &&
      typeof (value as { method?: unknown }).method === "string";
    const requestId = isRequest ? (value as { id?: unknown }).id : undefined;
    const wellFormedId =
      typeof requestId === "string" || (typeof requestId === "number" && Number.isInteger(requestId));
    if (isRequest && wellFormedId && !("result" in value) && !("error" in value)) {
      expect(response).toBeDefined();
      expect(response!.id).toBe(requestId);
    }
    if (response !== undefined) expect(["result" in response, "error" in response].filter(Boolean)).toHaveLength(1);
  }

  it("over random JSON values", async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue(), async (value) => check(value)));
  });

  it("over random text", async () => {
    await fc.assert(fc.asyncProperty(fc.string(), async (text) => check(text)));
  });

  it("over random valid-shaped messages", async () => {
    const method = fc.constantFrom(
      "tools/call",
      "ping",
      "tools/list",
      "notifications/cancelled",
      "resources/read",
      "nope",
    );
    const params = fc.oneof(
      fc.constant(undefined),
      fc.dictionary(fc.string(), fc.jsonValue()),
      fc
        .record({
          name: fc.constantFrom("echo", "throw", "rpc"),
          arguments: fc.dictionary(fc.string(), fc.jsonValue()),
        })
        .map((p) => call(0, p).params),
    );
    const message = fc.record(
      { jsonrpc: fc.constant("2.0"), id: fc.option(id, { nil: undefined }), method, params },
      { requiredKeys: ["jsonrpc", "method"] },
    );
    await fc.assert(fc.asyncProperty(message, async (m) => check(m)));
  });
});

describe("dispatcher core, batches (JSON-RPC 2.0 §6)", () => {
  const answered = (id: number | string, text: string) => ({ jsonrpc: "2.0", id, result: tools(text) });
  const refused = (id: number | string | null, code: number) => ({
    jsonrpc: "2.0",
    id,
    error: expect.objectContaining({ code, message: expect.any(String) }),
  });
  const note = { jsonrpc: "2.0", method: "notifications/initialized" };
  const handlers = {
    "tools/call": async (params: { name: string }) => {
      // The first request finishes last: the answer still follows the requests' order.
      if (params.name === "slow") await new Promise((resolve) => setTimeout(resolve, 20));
      return tools(params.name);
    },
    "notifications/initialized": () => undefined,
  };
  const d = createDispatcher(BATCHING, handlers);
  const rows: [string, unknown, unknown][] = [
    [
      "requests and a notification: one answer per request, in order",
      [legacyCall(1, { name: "slow" }), note, legacyCall("b", { name: "fast" })],
      [answered(1, "slow"), answered("b", "fast")],
    ],
    [
      "the same as JSON text, whitespace first",
      ` \n${JSON.stringify([legacyCall(1, { name: "x" }), note])}`,
      [answered(1, "x")],
    ],
    ["only notifications: nothing", [note, note], undefined],
    [
      "only responses: nothing",
      [
        { jsonrpc: "2.0", id: 1, result: {} },
        { jsonrpc: "2.0", id: 2, error: { code: 1, message: "m" } },
      ],
      undefined,
    ],
    ["an empty array: one -32600, not an array", [], refused(null, -32600)],
    ["empty as text", "[ ]", refused(null, -32600)],
    ["text that is not JSON: one -32700", '[{"jsonrpc": "2.0", "method"', refused(null, -32700)],
    ["each invalid element gets its own -32600", [1, 2], [refused(null, -32600), refused(null, -32600)]],
    [
      "an invalid element keeps its id where it can be read",
      [{ jsonrpc: "2.0", id: 9, method: 3 }, legacyCall(2, { name: "y" })],
      [refused(9, -32600), answered(2, "y")],
    ],
    ["an element is a value, never JSON text", [JSON.stringify(legacyCall(1))], [refused(null, -32600)]],
    ["batches do not nest", [[legacyCall(1)]], [refused(null, -32600)]],
    [
      "initialize must not be batched (2025-03-26 lifecycle): -32600 for it alone",
      [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } },
        },
        legacyCall(2, { name: "z" }),
      ],
      [refused(1, -32600), answered(2, "z")],
    ],
    [
      "per element rules: unknown method, invalid params",
      [{ ...legacyCall(1), method: "nope" }, legacyCall(2, { name: 5 })],
      [refused(1, -32601), refused(2, -32602)],
    ],
  ];
  it.each(rows)("%s", async (_label, given, want) => {
    expect(await d.handle(given)).toEqual(want);
  });

  it("elements run concurrently: a cancel later in the batch aborts its request, which gets no answer", async () => {
    const waiting = createDispatcher(BATCHING, {
      "tools/call": (params: { name: string }) =>
        params.name === "wait"
          ? new Promise((resolve) => setTimeout(() => resolve(tools("late")), 50))
          : tools(params.name),
      "notifications/cancelled": () => undefined,
    });
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    expect(await waiting.handle([legacyCall(1, { name: "wait" }), cancel, legacyCall(2, { name: "kept" })])).toEqual([
      answered(2, "kept"),
    ]);
  });

  it("never throws over random arrays; requests with an id are answered once each, in order", async () => {
    const method = fc.constantFrom("tools/call", "ping", "tools/list", "nope", "notifications/initialized");
    const params = fc.oneof(fc.constant(undefined), fc.record({ name: fc.constantFrom("a", "b") }));
    const id = fc.oneof(fc.string(), fc.integer());
    const message = fc.record(
      { jsonrpc: fc.constant("2.0"), id: fc.option(id, { nil: undefined }), method, params },
      { requiredKeys: ["jsonrpc", "method"] },
    );
    const quiet = createDispatcher(
      BATCHING,
      { "tools/call": (p: { name: string }) => tools(p.name), ping: () => ({}) },
      { onError: () => undefined },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(message, fc.jsonValue()), { minLength: 1, maxLength: 8 }), async (batch) => {
        const response = await quiet.handle(batch);
        const ids = batch.flatMap((m) =>
          m !== null && typeof m === "object" && "method" in m && "id" in m && m.id !== undefined ? [m.id] : [],
        );
        if (ids.length === 0) return;
        expect(Array.isArray(response)).toBe(true);
        const answeredIds = (response as DispatchResponse[]).map((r) => r.id).filter((i) => i !== null);
        expect(answeredIds).toEqual(ids);
      }),
    );
  });
});

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
