import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";

/**
 * The per-release dispatchers as a user builds them: each rule once more through the generated
 * wrappers (the release's data reaches the core), and the property that `handle` answers every
 * request exactly once with its id and never throws, over random input.
 */
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const modernCall = (id: number | string, params: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", ...params, _meta: { ...meta, ...(params as { _meta?: object })._meta } },
});
const legacyCall = (id: number | string, params: object = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", ...params },
});

describe("createServerDispatcher, 2026-07-28", () => {
  const server = modern.createServerDispatcher(
    {
      "tools/call": (params, ctx) => {
        if (params.name === "needs-sampling") ctx.requireClientCapability("sampling");
        if (params.name === "rpc") throw modern.RpcError.custom(-32000, "custom", { why: 1 });
        if (params.name === "boom") throw new Error("secret detail");
        return { content: [{ type: "text", text: params.name }] };
      },
    },
    { onError: () => undefined },
  );

  it("answers with resultType complete written in", async () => {
    expect(await server.handle(modernCall(1))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "echo" }], resultType: "complete" },
    });
  });

  it("applies every rule: -32601, -32602 (pointer, missing _meta), -32022, -32021, RpcError, -32603", async () => {
    const code = async (m: unknown) => ((await server.handle(m)) as { error?: { code: number } }).error?.code;
    expect(await code({ ...modernCall(2), method: "tools/list" })).toBe(modern.ErrorCode.MethodNotFound);
    expect(await code(modernCall(3, { name: 7 }))).toBe(modern.ErrorCode.InvalidParams);
    expect(await code({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "x" } })).toBe(
      modern.ErrorCode.InvalidParams,
    );
    expect(await code(modernCall(5, { _meta: { "io.modelcontextprotocol/protocolVersion": "2025-11-25" } }))).toBe(
      modern.ErrorCode.UnsupportedProtocolVersion,
    );
    expect(await code(modernCall(6, { name: "needs-sampling" }))).toBe(
      modern.ErrorCode.MissingRequiredClientCapability,
    );
    expect(await server.handle(modernCall(7, { name: "rpc" }))).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32000, message: "custom", data: { why: 1 } },
    });
    expect(await server.handle(modernCall(8, { name: "boom" }))).toEqual({
      jsonrpc: "2.0",
      id: 8,
      error: { code: -32603, message: "Internal error" },
    });
  });

  it("-32022 lists the supported versions, which an option widens", async () => {
    const wide = modern.createServerDispatcher(
      { "tools/call": () => ({ content: [] }) },
      { supportedVersions: ["2026-07-28", "2027-01-01"] },
    );
    const response = await wide.handle(
      modernCall(1, { _meta: { "io.modelcontextprotocol/protocolVersion": "2030-01-01" } }),
    );
    expect(response).toMatchObject({
      error: { code: -32022, data: { requested: "2030-01-01", supported: ["2026-07-28", "2027-01-01"] } },
    });
  });

  it("what it answers goes back through parse, and httpStatusOf gives the page's status", async () => {
    for (const [message, status] of [
      [modernCall(1), 200],
      [{ ...modernCall(2), method: "nope" }, 404],
      [modernCall(3, { name: 7 }), 400],
      [modernCall(5, { _meta: { "io.modelcontextprotocol/protocolVersion": "1" } }), 400],
    ] as const) {
      const response = await server.handle(message);
      expect(modern.parse(JSON.stringify(response)).ok).toBe(true);
      expect(modern.httpStatusOf(response)).toBe(status);
    }
    expect(
      modern.httpStatusOf(
        await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
      ),
    ).toBe(202);
  });
});

describe("createServerDispatcher, 2025-11-25", () => {
  const server = legacy.createServerDispatcher({
    "tools/call": (params) => ({ content: [{ type: "text", text: params.name }] }),
    ping: () => ({}),
  });

  it("answers without resultType and without _meta rules", async () => {
    expect(await server.handle(legacyCall(1))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "echo" }] },
    });
    expect(await server.handle({ jsonrpc: "2.0", id: 2, method: "ping" })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {},
    });
  });

  it("-32601 for initialize without a handler, -32602 for bad params", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 3,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    };
    expect(await server.handle(init)).toMatchObject({ id: 3, error: { code: -32601 } });
    expect(await server.handle(legacyCall(4, { name: false }))).toMatchObject({ id: 4, error: { code: -32602 } });
  });
});

describe("cancellation and progress reach the handlers through each release's generated wiring", () => {
  it.each([
    { era: "2025-11-25", create: legacy.createServerDispatcher, call: legacyCall },
    { era: "2026-07-28", create: modern.createServerDispatcher, call: modernCall },
  ] as const)("$era", async ({ create, call }) => {
    const sent: unknown[] = [];
    let signal: AbortSignal | undefined;
    const server = (create as typeof legacy.createServerDispatcher)(
      {
        "tools/call": (params, ctx) => {
          if (params.name === "slow") {
            signal = ctx.signal;
            return new Promise(() => undefined);
          }
          ctx.progress?.({ progress: 1, total: 2 });
          return { content: [] };
        },
      },
      { send: (message) => void sent.push(message) },
    );
    const slow = server.handle(call(1, { name: "slow" }));
    await new Promise((r) => setTimeout(r, 0));
    expect(
      await server.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
    ).toBeUndefined();
    expect(signal?.aborted).toBe(true);
    expect(await slow).toBeUndefined();
    await server.handle(call(2, { _meta: { progressToken: "t" } }));
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 2 } },
    ]);
  });
});

describe("createClientDispatcher", () => {
  it("2025-11-25: answers server requests (sampling, roots) and takes server notifications", async () => {
    const seen: unknown[] = [];
    const client = legacy.createClientDispatcher({
      "roots/list": () => ({ roots: [{ uri: "file:///w" }] }),
      "notifications/tools/list_changed": () => void seen.push("changed"),
    });
    expect(await client.handle({ jsonrpc: "2.0", id: "r", method: "roots/list" })).toEqual({
      jsonrpc: "2.0",
      id: "r",
      result: { roots: [{ uri: "file:///w" }] },
    });
    expect(await client.handle({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })).toBeUndefined();
    expect(seen).toEqual(["changed"]);
    expect(await client.handle(legacyCall(1))).toMatchObject({ error: { code: -32601 } });
  });

  it("2026-07-28: answers the input requests of an input_required result", async () => {
    const client = modern.createClientDispatcher({ "roots/list": () => ({ roots: [] }) });
    const answers = await client.answerInputRequests({ r: { method: "roots/list", params: { _meta: meta } } });
    expect(answers).toEqual({ inputResponses: { r: { roots: [] } }, errors: {} });
  });
});

const propertyCases = [
  {
    era: "2025-11-25",
    dispatcher: legacy.createServerDispatcher({ "tools/call": () => ({ content: [] }), ping: () => ({}) }),
    call: legacyCall,
  },
  {
    era: "2026-07-28",
    dispatcher: modern.createServerDispatcher({ "tools/call": () => ({ content: [] }) }),
    call: modernCall,
  },
] as const;

describe.each(propertyCases)("the $era server dispatcher over random input", ({ dispatcher, call }) => {
  const answersOnce = async (message: unknown): Promise<void> => {
    const response = await dispatcher.handle(message);
    const m = message as { id?: unknown; method?: unknown; jsonrpc?: unknown };
    const isRequest =
      typeof m === "object" &&
      m !== null &&
      m.jsonrpc === "2.0" &&
      typeof m.method === "string" &&
      (typeof m.id === "string" || Number.isInteger(m.id));
    if (isRequest) expect(response?.id).toBe(m.id);
    if (response !== undefined) expect("result" in response !== "error" in response).toBe(true);
  };

  it("random JSON never throws; a request is answered once with its id", async () => {
    await fc.assert(fc.asyncProperty(fc.jsonValue(), answersOnce));
  });

  it("random valid-shaped requests and notifications", async () => {
    const id = fc.oneof(fc.string(), fc.integer());
    const method = fc.constantFrom("tools/call", "ping", "tools/list", "initialize", "notifications/cancelled", "x");
    const params = fc.oneof(
      fc.record({ name: fc.string(), arguments: fc.dictionary(fc.string(), fc.jsonValue()) }),
      fc.dictionary(fc.string(), fc.jsonValue()),
    );
    const message = fc.tuple(id, method, params, fc.boolean()).map(([i, m, p, isNote]) => {
      const base = { ...call(i, p), method: m } as { id?: unknown };
      if (isNote) delete base.id;
      return base;
    });
    await fc.assert(fc.asyncProperty(message, answersOnce));
  });
});
