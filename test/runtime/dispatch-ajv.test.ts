import { describe, expect, it } from "vitest";
import * as batching from "../../generated/2025-03-26/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";
import { officialSchema } from "../support/official-schema.ts";

// Every kind of answer the dispatchers give, judged by Ajv on the official schema of the release (officialSchema), in its dialect.

const meta = (version = "2026-07-28") => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
});

describe("2026-07-28 dispatcher answers fit the official schema", () => {
  const check = officialSchema("2026-07-28");
  const server = modern.createServerDispatcher(
    {
      "tools/call": (params, ctx) => {
        if (params.name === "sampling") ctx.requireClientCapability("sampling");
        if (params.name === "boom") throw new Error("x");
        if (params.name === "ask")
          return {
            resultType: "input_required",
            inputRequests: { r: { method: "roots/list", params: { _meta: meta() } } },
          };
        return { content: [{ type: "text", text: "ok" }] };
      },
      "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "private" }),
    },
    { onError: () => undefined },
  );
  const cases: [string, unknown, string[]][] = [
    [
      "a result",
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", _meta: meta() } },
      ["CallToolResultResponse", "JSONRPCMessage"],
    ],
    [
      "an input_required result",
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", _meta: meta() } },
      ["CallToolResultResponse"],
    ],
    [
      "a list result",
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta() } },
      ["ListToolsResultResponse"],
    ],
    [
      "-32601",
      { jsonrpc: "2.0", id: 4, method: "prompts/list", params: { _meta: meta() } },
      ["JSONRPCErrorResponse", "error:MethodNotFoundError"],
    ],
    [
      "-32602",
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: 5, _meta: meta() } },
      ["JSONRPCErrorResponse", "error:InvalidParamsError"],
    ],
    [
      "-32602 for missing _meta",
      { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "t" } },
      ["JSONRPCErrorResponse", "error:InvalidParamsError"],
    ],
    [
      "-32022",
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t", _meta: meta("1999-01-01") } },
      ["UnsupportedProtocolVersionError"],
    ],
    [
      "-32021",
      { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "sampling", _meta: meta() } },
      ["MissingRequiredClientCapabilityError"],
    ],
    [
      "-32603",
      { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "boom", _meta: meta() } },
      ["JSONRPCErrorResponse", "error:InternalError"],
    ],
    ["-32700 with no id", "{oops", ["JSONRPCErrorResponse", "error:ParseError"]],
    ["-32600 with no id", "[1]", ["JSONRPCErrorResponse", "error:InvalidRequestError"]],
    [
      "-32602 for params by position",
      { jsonrpc: "2.0", id: 10, method: "tools/list", params: [] },
      ["JSONRPCErrorResponse", "error:InvalidParamsError"],
    ],
  ];
  it.each(cases)("%s", async (_label, message, definitions) => {
    const response = await server.handle(message);
    // `error:X` judges the error object alone: the schema's MethodNotFoundError & co. describe `error`, not the response.
    const judged = definitions.map((d) =>
      d.startsWith("error:") ? check(d.slice(6), (response as { error?: unknown }).error) : check(d, response),
    );
    expect(judged.filter((e) => e !== null)).toEqual([]);
  });
});

describe.each(["2025-11-25", "2026-07-28"])("the official schema (%s) wants params to be an object", (version) => {
  // JSON-RPC 2.0 §4.2 allows params by position; MCP's JSONRPCRequest does not, so such a request is well formed but its params are invalid (-32602).
  it.each([[[]], [[1]], ["x"], [null]])("refuses params %j", (params) => {
    expect(
      officialSchema(version)("JSONRPCRequest", { jsonrpc: "2.0", id: 1, method: "tools/list", params }),
    ).not.toBeNull();
  });
});

describe("2025-11-25 dispatcher answers fit the official schema", () => {
  const check = officialSchema("2025-11-25");
  const server = legacy.createServerDispatcher({ "tools/list": () => ({ tools: [] }) });
  it.each([
    ["a result", { jsonrpc: "2.0", id: 1, method: "tools/list" }, "JSONRPCResultResponse"],
    ["-32601", { jsonrpc: "2.0", id: 2, method: "prompts/list" }, "JSONRPCErrorResponse"],
    ["-32602", { jsonrpc: "2.0", id: 3, method: "tools/list", params: { cursor: 1 } }, "JSONRPCErrorResponse"],
    ["-32700 with no id", "{oops", "JSONRPCErrorResponse"],
    [
      "-32602 for params by position",
      { jsonrpc: "2.0", id: 4, method: "tools/list", params: [] },
      "JSONRPCErrorResponse",
    ],
  ] as const)("%s", async (_label, message, definition) => {
    expect(check(definition, await server.handle(message))).toBeNull();
  });
});

describe("2025-03-26 dispatchers answer JSON-RPC batches, and every answer fits the official schema", () => {
  const check = officialSchema("2025-03-26");
  const server = batching.createServerDispatcher(
    {
      "tools/list": () => ({ tools: [] }),
      "tools/call": (params) => {
        if (params.name === "boom") throw new Error("x");
        return { content: [{ type: "text", text: params.name }] };
      },
      ping: () => ({}),
      // Answers when asked alone: inside a batch it must never run (the release's lifecycle page).
      initialize: () => ({ protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "s", version: "1" } }),
      "notifications/initialized": () => undefined,
    },
    { onError: () => undefined },
  );
  const client = batching.createClientDispatcher({ "roots/list": () => ({ roots: [] }), ping: () => ({}) });
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  const call = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name } });

  // given a body, want the ids answered in order (null: an error whose request id could not be read).
  const rows: [string, unknown, (number | null)[]][] = [
    [
      "requests beside a notification",
      [call(1, "a"), initialized, { jsonrpc: "2.0", id: 2, method: "tools/list" }],
      [1, 2],
    ],
    ["as JSON text", JSON.stringify([{ jsonrpc: "2.0", id: 3, method: "ping" }, initialized]), [3]],
    [
      "errors in a batch: unknown method, bad params, a throwing handler",
      [{ jsonrpc: "2.0", id: 4, method: "nope" }, call(5, 5 as never), call(6, "boom")],
      [4, 5, 6],
    ],
    ["an invalid element beside a request", [42, call(7, "b")], [null, 7]],
    ["an invalid element with a readable id", [{ jsonrpc: "2.0", id: 8, method: 1 }], [8]],
    [
      "initialize inside a batch",
      [
        {
          jsonrpc: "2.0",
          id: 10,
          method: "initialize",
          params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } },
        },
      ],
      [10],
    ],
  ];
  it.each(rows)("%s", async (_label, body, ids) => {
    const answer = await server.handle(body);
    expect(Array.isArray(answer)).toBe(true);
    const responses = answer as batching.DispatchResponse[];
    expect(responses.map((r) => r.id)).toEqual(ids);
    const withIds = responses.filter((r) => r.id !== null);
    // The array as a whole is a JSONRPCBatchResponse (and a JSONRPCMessage) once null ids are set aside (below).
    expect([check("JSONRPCBatchResponse", withIds), check("JSONRPCMessage", withIds)]).toEqual([null, null]);
    for (const response of responses.filter((r) => r.id === null)) {
      // JSON-RPC 2.0 §5 answers an unreadable id with null; 2025-03-26's JSONRPCError has no null id, so only its error is judged.
      expect(check("JSONRPCError/properties/error", (response as { error: unknown }).error)).toBeNull();
    }
  });

  it("initialize inside a batch is refused with -32600, though its handler answers it alone", async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 10,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    };
    expect(await server.handle(initialize)).toMatchObject({ id: 10, result: { protocolVersion: "2025-03-26" } });
    expect(await server.handle([initialize])).toMatchObject([{ id: 10, error: { code: -32600 } }]);
  });

  it("only notifications, or only responses: no answer", async () => {
    expect(await server.handle([initialized, initialized])).toBeUndefined();
    expect(
      await client.handle([
        { jsonrpc: "2.0", id: 1, result: {} },
        { jsonrpc: "2.0", id: 2, error: { code: -32601, message: "m" } },
      ]),
    ).toBeUndefined();
  });

  it("an empty batch: one -32600 with a null id, not an array", async () => {
    const answer = await server.handle("[]");
    expect(answer).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.any(String) } });
    expect(check("JSONRPCError/properties/error", (answer as { error: unknown }).error)).toBeNull();
  });

  it("the client dispatcher takes a batch of server requests too", async () => {
    const answer = await client.handle([
      { jsonrpc: "2.0", id: 1, method: "roots/list" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ]);
    expect(check("JSONRPCBatchResponse", answer)).toBeNull();
    expect(answer).toEqual([
      { jsonrpc: "2.0", id: 1, result: { roots: [] } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("a single message is answered as before", async () => {
    expect(check("JSONRPCResponse", await server.handle({ jsonrpc: "2.0", id: 9, method: "ping" }))).toBeNull();
  });
});

describe.each([
  ["2024-11-05", () => import("../../generated/2024-11-05/index.js")],
  ["2025-06-18", () => import("../../generated/2025-06-18/index.js")],
  ["2025-11-25", () => import("../../generated/2025-11-25/index.js")],
  ["2026-07-28", () => import("../../generated/2026-07-28/index.js")],
] as const)("%s has no batches: an array is one invalid request", (_version, load) => {
  it.each([
    ["an array", [{ jsonrpc: "2.0", id: 1, method: "ping" }]],
    ["its text", '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'],
  ])("%s", async (_label, body) => {
    const server = (await load()).createServerDispatcher({});
    expect(await server.handle(body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
  });
});
