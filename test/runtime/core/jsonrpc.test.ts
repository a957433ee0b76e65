import { describe, expect, it } from "vitest";
import { createHttpHandler } from "../../../generated/index.js";
import * as batching from "../../../generated/2025-03-26/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";
import {
  checkEnvelope,
  encodeMessage,
  isRequestId,
  MAX_NESTING,
  parseMessage,
  parseText,
  refusalAnswer,
} from "../../../generator/runtime/core/jsonrpc.ts";

describe("checkEnvelope: one row per JSON-RPC rule", () => {
  const rows: { name: string; given: unknown; want: { kind: string } | { pointer: string; inParams?: boolean } }[] = [
    { name: "a request", given: { jsonrpc: "2.0", id: 1, method: "ping" }, want: { kind: "request" } },
    { name: "a string id", given: { jsonrpc: "2.0", id: "a", method: "ping", params: {} }, want: { kind: "request" } },
    { name: "a notification", given: { jsonrpc: "2.0", method: "notifications/x" }, want: { kind: "notification" } },
    { name: "a result", given: { jsonrpc: "2.0", id: 1, result: {} }, want: { kind: "result" } },
    {
      name: "an error without id",
      given: { jsonrpc: "2.0", error: { code: 1, message: "x" } },
      want: { kind: "error" },
    },
    { name: "not an object (a batch)", given: [], want: { pointer: "" } },
    { name: "not an object (null)", given: null, want: { pointer: "" } },
    { name: "no jsonrpc", given: { id: 1, method: "ping" }, want: { pointer: "/jsonrpc" } },
    { name: "jsonrpc 1.0", given: { jsonrpc: "1.0", id: 1, method: "ping" }, want: { pointer: "/jsonrpc" } },
    { name: "a null id", given: { jsonrpc: "2.0", id: null, method: "ping" }, want: { pointer: "/id" } },
    { name: "a fractional id", given: { jsonrpc: "2.0", id: 1.5, method: "ping" }, want: { pointer: "/id" } },
    { name: "a numeric method", given: { jsonrpc: "2.0", id: 1, method: 5 }, want: { pointer: "/method" } },
    {
      name: "a method beside a result",
      given: { jsonrpc: "2.0", id: 1, method: "m", result: {} },
      want: { pointer: "/result" },
    },
    {
      name: "a method beside an error",
      given: { jsonrpc: "2.0", id: 1, method: "m", error: {} },
      want: { pointer: "/error" },
    },
    // JSON-RPC 2.0 §4.2: params by position (an array) make a valid request whose params MCP refuses (-32602);
    // params that are not a structured value at all make an invalid request (-32600).
    {
      name: "array params",
      given: { jsonrpc: "2.0", id: 1, method: "m", params: [1] },
      want: { pointer: "/params", inParams: true },
    },
    {
      name: "array params on a notification",
      given: { jsonrpc: "2.0", method: "m", params: [] },
      want: { pointer: "/params", inParams: true },
    },
    { name: "string params", given: { jsonrpc: "2.0", id: 1, method: "m", params: "x" }, want: { pointer: "/params" } },
    { name: "null params", given: { jsonrpc: "2.0", id: 1, method: "m", params: null }, want: { pointer: "/params" } },
    {
      name: "result and error",
      given: { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } },
      want: { pointer: "" },
    },
    { name: "neither method, result nor error", given: { jsonrpc: "2.0", id: 1 }, want: { pointer: "" } },
    { name: "a result without id", given: { jsonrpc: "2.0", result: {} }, want: { pointer: "/id" } },
    { name: "an array result", given: { jsonrpc: "2.0", id: 1, result: [] }, want: { pointer: "/result" } },
    { name: "a string error", given: { jsonrpc: "2.0", id: 1, error: "boom" }, want: { pointer: "/error" } },
    {
      name: "a fractional error code",
      given: { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } },
      want: { pointer: "/error/code" },
    },
    {
      name: "an error without message",
      given: { jsonrpc: "2.0", id: 1, error: { code: 1 } },
      want: { pointer: "/error/message" },
    },
  ];
  it.each(rows)("$name", ({ given, want }) => {
    const checked = checkEnvelope(given);
    if ("kind" in want) expect(checked.ok && checked.message.kind).toBe(want.kind);
    else
      expect(checked).toMatchObject({ ok: false, inParams: want.inParams ?? false, issue: { pointer: want.pointer } });
  });

  it("copies only JSON-RPC's members: an own __proto__ stays data", () => {
    const checked = checkEnvelope(
      JSON.parse('{"jsonrpc":"2.0","method":"m","params":{"__proto__":{"x":1}},"extra":1}'),
    );
    expect(checked.ok && checked.message).toEqual({
      kind: "notification",
      jsonrpc: "2.0",
      method: "m",
      params: JSON.parse('{"__proto__":{"x":1}}'),
    });
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });
});

describe("parse and encode", () => {
  it.each([
    { given: 42, want: -32700 },
    { given: "{", want: -32700 },
    { given: '{"jsonrpc":"2.0","id":1,"method":"m","params":[]}', want: -32602 },
    { given: '{"jsonrpc":"2.0","id":1,"method":"m","params":3}', want: -32600 },
  ])("parseText($given) refuses with $want", ({ given, want }) => {
    expect(parseText(given)).toMatchObject({ ok: false, error: { code: want } });
  });

  it("a refusal names the pointer, what was expected and what was found", () => {
    expect(parseText('{"jsonrpc":"2.0","id":null,"method":"m"}')).toEqual({
      ok: false,
      error: { code: -32600, message: "/id: expected string | integer, got null" },
    });
  });

  it("parseMessage hands a checked message to the release's validation and words its first issue, keeping a request's id", () => {
    const refuse = () => ({
      ok: false as const,
      code: -32601 as const,
      errors: [{ pointer: "/method", expected: "a request method", got: '"x"' }],
    });
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"method":"x"}', refuse)).toEqual({
      ok: false,
      error: { code: -32601, message: '/method: expected a request method, got "x"' },
      id: 1,
    });
    expect(parseMessage('{"jsonrpc":"2.0","method":"x"}', refuse)).toEqual({
      ok: false,
      error: { code: -32601, message: '/method: expected a request method, got "x"' },
    });
    expect(parseMessage('{"jsonrpc":"2.0","id":1,"method":"x"}', () => ({ ok: true }))).toMatchObject({
      ok: true,
      message: { kind: "request" },
    });
  });

  it("encode writes only JSON-RPC's members, in their order", () => {
    expect(encodeMessage({ kind: "request", method: "m", id: 1, jsonrpc: "2.0", params: undefined })).toBe(
      '{"jsonrpc":"2.0","id":1,"method":"m"}',
    );
  });
});

describe("what a refused message is answered with (JSON-RPC 2.0 sections 4, 4.1 and 5)", () => {
  it.each([
    {
      name: "a request with a string id",
      given: { jsonrpc: "2.0", id: "a", method: 5 },
      want: { answer: true, id: "a" },
    },
    { name: "a request with an integer id", given: { id: 7, method: "m", params: 1 }, want: { answer: true, id: 7 } },
    {
      name: "a fractional id, unreadable",
      given: { jsonrpc: "2.0", id: 1.5, method: "m" },
      want: { answer: true, id: undefined },
    },
    {
      name: "an object id, unreadable",
      given: { jsonrpc: "2.0", id: {}, method: "m" },
      want: { answer: true, id: undefined },
    },
    { name: "a null id", given: { jsonrpc: "2.0", id: null, method: "m" }, want: { answer: true, id: undefined } },
    {
      name: "a notification, however malformed",
      given: { jsonrpc: "2.0", method: "m", params: 5 },
      want: { answer: false },
    },
    { name: "a response", given: { jsonrpc: "2.0", id: 1, result: 5, error: 5 }, want: { answer: false } },
    { name: "an error response with no id", given: { error: "x" }, want: { answer: false } },
    { name: "no object at all", given: [1], want: { answer: true, id: undefined } },
    { name: "no jsonrpc and no id", given: { method: "m" }, want: { answer: true, id: undefined } },
    {
      name: "a method that is no string and no id",
      given: { jsonrpc: "2.0", method: 5 },
      want: { answer: true, id: undefined },
    },
  ])("$name", ({ given, want }) => {
    expect(refusalAnswer(given)).toEqual(want);
  });

  it.each([
    { given: "1", want: true },
    { given: "", want: true },
    { given: 0, want: true },
    { given: -3, want: true },
    { given: 1.5, want: false },
    { given: Number.NaN, want: false },
    { given: null, want: false },
    { given: true, want: false },
  ])("isRequestId($given) is $want", ({ given, want }) => {
    expect(isRequestId(given)).toBe(want);
  });

  it("parseText refuses with the request's id where it can be read, and none where it cannot", () => {
    expect(parseText('{"jsonrpc":"2.0","id":"x","method":5}')).toMatchObject({ ok: false, id: "x" });
    expect(parseText('{"jsonrpc":"2.0","id":1.5,"method":5}')).not.toHaveProperty("id");
    expect(parseText('{"jsonrpc":"2.0","method":5}')).not.toHaveProperty("id");
  });
});

// The nesting limit (`MAX_NESTING`): JSON.parse takes any depth, but what comes after recurses (JSON.stringify,
// validators, handlers), so a deeply nested request is refused where its id is still at hand: -32602 with that id
// from `parseText`, from a dispatcher given text or a value, and from the HTTP handler in both eras (400, as any
// body the parser refuses).

/** `levels` nested arrays. */
const nested = (levels: number): string => "[".repeat(levels) + "]".repeat(levels);
const META = {
  [modern.MetaKey.protocolVersion]: "2026-07-28",
  [modern.MetaKey.clientCapabilities]: {},
};
/** A tools/call whose arguments hold `levels` nested arrays: the message nests `levels + 3` deep. */
const deepCall = (id: number, levels: number, meta?: object): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t","arguments":{"a":${nested(levels)}}` +
  `${meta === undefined ? "" : `,"_meta":${JSON.stringify(meta)}`}}}`;
const refused = (id: number) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32602, message: expect.stringMatching(/^\/params: expected at most 128 levels/) },
});

describe("parseText's nesting limit", () => {
  it("takes a message exactly MAX_NESTING deep and refuses one level more, with the request's id", () => {
    expect(MAX_NESTING).toBe(128);
    expect(parseText(deepCall(1, MAX_NESTING - 3)).ok).toBe(true);
    expect(parseText(deepCall(1, MAX_NESTING - 2))).toEqual({
      ok: false,
      id: 1,
      error: { code: -32602, message: "/params: expected at most 128 levels of nesting, got more" },
    });
  });

  it.each([
    ["a 10,000-deep request", deepCall(7, 10_000), 7],
    ["a 100,000-deep request", deepCall(8, 100_000), 8],
    [
      "depth inside _meta",
      `{"jsonrpc":"2.0","id":"x","method":"ping","params":{"_meta":{"a":${nested(10_000)}}}}`,
      "x",
    ],
  ])("%s is refused -32602 with its id", (_, text, id) => {
    expect(parseText(text)).toMatchObject({ ok: false, id, error: { code: -32602 } });
  });

  it("a deep notification or response is refused without an id (none is answered)", () => {
    const notification = parseText(`{"jsonrpc":"2.0","method":"x","params":{"a":${nested(10_000)}}}`);
    expect(notification).toMatchObject({ ok: false, error: { code: -32602 } });
    expect(notification).not.toHaveProperty("id");
    expect(parseText(`{"jsonrpc":"2.0","id":1,"result":{"a":${nested(10_000)}}}`)).toEqual({
      ok: false,
      error: { code: -32600, message: "/result: expected at most 128 levels of nesting, got more" },
    });
  });

  it("depth outside the members JSON-RPC keeps is not counted", () => {
    expect(parseText(`{"jsonrpc":"2.0","id":1,"method":"ping","extra":${nested(10_000)}}`).ok).toBe(true);
  });
});

describe("a deeply nested request through the server", () => {
  const stateless = modern.statelessEra({ "tools/call": () => ({ content: [] }) });
  const sessions = legacy.sessionEra({
    initialize: () => ({
      protocolVersion: legacy.PROTOCOL_VERSION,
      capabilities: { tools: {} },
      serverInfo: { name: "s", version: "1" },
    }),
    "tools/call": () => ({ content: [] }),
  });

  it("the dispatcher answers it -32602 with its id, given text or a value", async () => {
    const dispatcher = legacy.createServerDispatcher({ "tools/call": () => ({ content: [] }) });
    expect(await dispatcher.handle(deepCall(3, 10_000))).toEqual(refused(3));
    // A value too deep for JSON.stringify: the id is read from the envelope all the same.
    expect(await dispatcher.handle(JSON.parse(deepCall(4, 10_000)))).toEqual(refused(4));
    const modernDispatcher = modern.createServerDispatcher({ "tools/call": () => ({ content: [] }) });
    expect(await modernDispatcher.handle(JSON.parse(deepCall(5, 10_000, META)))).toEqual(refused(5));
  });

  it("a batch member nested too deep gets its own -32602 with its id, beside its siblings' answers", async () => {
    const dispatcher = batching.createServerDispatcher({ "tools/call": () => ({ content: [] }) });
    const ok = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}';
    expect(await dispatcher.handle(`[${ok},${deepCall(2, 10_000)},${deepCall(3, 200)}]`)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [] } },
      refused(2),
      refused(3),
    ]);
  });

  it("createHttpHandler answers it 400 with its id in both eras", async () => {
    const handler = createHttpHandler({ stateless, sessions });
    const post = (body: string, headers: Record<string, string>) =>
      handler.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: {
            host: "127.0.0.1",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
          body,
        }),
      );
    const modernHeaders = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "t" };
    const answer = await post(deepCall(7, 10_000, META), modernHeaders);
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 400, body: refused(7) });

    const opened = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      }),
      {},
    );
    const session = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    expect(opened.status).toBe(200);
    const inSession = await post(deepCall(8, 10_000), session);
    expect({ status: inSession.status, body: await inSession.json() }).toEqual({ status: 400, body: refused(8) });
    handler.close();
  });
});
