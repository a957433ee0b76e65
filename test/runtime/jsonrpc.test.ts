// The JSON-RPC layer's nesting limit (runtime/jsonrpc.ts `MAX_NESTING`): JSON.parse takes any depth, but what
// comes after recurses (JSON.stringify, validators, handlers), so a deeply nested request is refused where its
// id is still at hand: -32602 with that id from `parseText`, from a dispatcher given text or a value, and from
// the HTTP handler in both eras (400, as any body the parser refuses).
import { describe, expect, it } from "vitest";
import { createHttpHandler } from "../../generated/index.js";
import * as batching from "../../generated/2025-03-26/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";
import { MAX_NESTING, parseText } from "../../generator/runtime/jsonrpc.ts";

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
