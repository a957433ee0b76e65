// The requestState codec (runtime/server/request-state.ts): signed with HMAC-SHA-256, bound to the request it was issued
// for (method and params, without the answers, the state and _meta) and usable once; then the stateless era's
// check through the HTTP handler, with the replays an adversarial client tried: one state accepted three times,
// with changed params, on another tool and on another method.
import { describe, expect, it } from "vitest";
import { createHttpHandler } from "../../../generated/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";
import { createStateCodec, type UsedStateStore } from "../../../generator/runtime/server/request-state.ts";
import { StoreUnavailableError } from "../../../generator/runtime/server/session-store.ts";

const secret = "x".repeat(32);
const pay = { method: "tools/call", params: { name: "pay", arguments: { amount: 1 } } };

describe("createStateCodec", () => {
  it("verifies what it signed, once, until it expires", async () => {
    let time = 1000;
    const codec = createStateCodec({ secret, maxAgeMs: 100, now: () => time });
    const token = await codec.sign({ step: 2, name: "Ada" }, pay);
    expect(await codec.verify(token, pay)).toEqual({ step: 2, name: "Ada" });
    expect(await codec.verify(token, pay)).toBeUndefined();
    const late = await codec.sign({ step: 2 }, pay);
    time = 1101;
    expect(await codec.verify(late, pay)).toBeUndefined();
  });

  it("refuses another key's, altered and malformed tokens without throwing", async () => {
    const codec = createStateCodec({ secret });
    const token = await codec.sign({ step: 1 }, pay);
    const [payload, mac] = token.split(".") as [string, string];
    const other = await createStateCodec({ secret: "y".repeat(32) }).sign({ step: 1 }, pay);
    const flipped = payload.slice(0, -1) + (payload.endsWith("A") ? "B" : "A");
    for (const bad of [
      other,
      `${flipped}.${mac}`,
      `${payload}.${mac}x`,
      `${payload}.${mac}.x`,
      "",
      "a.b",
      42,
      undefined,
      `${payload}=.${mac}`,
    ]) {
      expect(await codec.verify(bad, pay), String(bad)).toBeUndefined();
    }
    expect(await codec.verify(token, pay)).toEqual({ step: 1 });
  });

  it("refuses a state on another method, tool or params, and spends it only on its own request", async () => {
    const codec = createStateCodec({ secret });
    const token = await codec.sign({ step: 1 }, pay);
    for (const other of [
      { method: "tools/call", params: { name: "pay", arguments: { amount: 1_000_000 } } },
      { method: "tools/call", params: { name: "refund", arguments: { amount: 1 } } },
      { method: "prompts/get", params: { name: "pay", arguments: { amount: 1 } } },
      { method: "tools/call", params: { name: "pay", arguments: { amount: 1 }, extra: true } },
      { method: "tools/call", params: { name: "pay" } },
    ]) {
      expect(await codec.verify(token, other), JSON.stringify(other)).toBeUndefined();
    }
    // Key order is no difference: the params are digested as canonical JSON.
    const reordered = { method: "tools/call", params: { arguments: { amount: 1 }, name: "pay" } };
    expect(await codec.verify(token, reordered)).toEqual({ step: 1 });
  });

  it("records used states in the store it is given, with their expiry, so that instances sharing it refuse a replay", async () => {
    const seen = new Map<string, number>();
    const used: UsedStateStore = {
      use: async (nonce, expiresAt) => {
        if (seen.has(nonce)) return false;
        seen.set(nonce, expiresAt);
        return true;
      },
    };
    const one = createStateCodec({ secret, used, now: () => 5000, maxAgeMs: 100 });
    const two = createStateCodec({ secret, used, now: () => 5000, maxAgeMs: 100 });
    const token = await one.sign({ step: 1 }, pay);
    expect(await two.verify(token, pay)).toEqual({ step: 1 });
    expect(await one.verify(token, pay)).toBeUndefined();
    expect([...seen.values()]).toEqual([5100]);
  });

  it("rejects with StoreUnavailableError when the used-state store fails, rather than calling the state spent", async () => {
    const used: UsedStateStore = {
      use: () => Promise.reject(new Error("redis: connection is closed")),
    };
    const codec = createStateCodec({ secret, used });
    const token = await codec.sign({ step: 1 }, pay);
    await expect(codec.verify(token, pay)).rejects.toBeInstanceOf(StoreUnavailableError);
    // A bad token is still refused without asking the store.
    expect(await codec.verify("not.a-token", pay)).toBeUndefined();
  });

  it("wants a secret of at least 32 bytes", () => {
    expect(() => createStateCodec({ secret: "short" })).toThrow(/32 bytes/);
  });
});

describe("requestState through the stateless era", () => {
  const META = {
    [modern.MetaKey.protocolVersion]: "2026-07-28",
    [modern.MetaKey.clientCapabilities]: { elicitation: {} },
  };
  const CONFIRM = {
    confirm: {
      method: "elicitation/create" as const,
      params: { message: "Sure?", requestedSchema: { type: "object" as const, properties: {} } },
    },
  };

  function server(used?: UsedStateStore) {
    const ran: string[] = [];
    const stateless = modern.statelessEra(
      {
        "tools/call": async (params, ctx) => {
          if (ctx.context.state === undefined) return ctx.context.inputRequired(CONFIRM, { confirmed: params.name });
          ran.push(`${params.name} ${JSON.stringify(params.arguments)}`);
          return { content: [{ type: "text", text: "paid" }] };
        },
        "prompts/get": (params) => {
          ran.push(`prompt ${params.name}`);
          return { messages: [] };
        },
      },
      { requestState: { secret, ...(used === undefined ? {} : { used }) } },
    );
    const handler = createHttpHandler({ stateless });
    const send = async (id: number, method: string, params: Record<string, unknown>) => {
      const name = String(params["name"]);
      const response = await handler.fetch(
        new Request("http://127.0.0.1/mcp", {
          method: "POST",
          headers: {
            host: "127.0.0.1",
            "content-type": "application/json",
            accept: "application/json",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": method,
            "mcp-name": name,
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id,
            method,
            params: { ...params, _meta: { ...META, progressToken: id } },
          }),
        }),
      );
      return {
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        body: (await response.json()) as { result?: Record<string, unknown>; error?: { code: number } },
      };
    };
    return { ran, send, handler };
  }

  it("a state is accepted once, on the request it was issued for, whatever else a client sends it with", async () => {
    const { ran, send, handler } = server();
    const asked = await send(1, "tools/call", { name: "pay", arguments: { amount: 1 } });
    const requestState = asked.body.result?.["requestState"];
    expect(typeof requestState).toBe("string");
    const answers = { inputResponses: { confirm: { action: "accept", content: {} } }, requestState };

    for (const [method, params] of [
      ["tools/call", { name: "pay", arguments: { amount: 1_000_000 } }],
      ["tools/call", { name: "refund", arguments: { amount: 1 } }],
      ["prompts/get", { name: "pay", arguments: { amount: "1" } }],
    ] as const) {
      const replay = await send(2, method, { ...params, ...answers });
      expect(replay, `${method} ${JSON.stringify(params)}`).toMatchObject({
        status: 400,
        body: { error: { code: -32602 } },
      });
    }
    // The honest retry (a new id and progress token: _meta is not bound) still works, once.
    const retry = await send(3, "tools/call", { name: "pay", arguments: { amount: 1 }, ...answers });
    expect(retry).toMatchObject({ status: 200, body: { result: { content: [{ text: "paid" }] } } });
    const again = await send(4, "tools/call", { name: "pay", arguments: { amount: 1 }, ...answers });
    expect(again).toMatchObject({ status: 400, body: { error: { code: -32602 } } });
    expect(ran).toEqual(['pay {"amount":1}']);
    handler.close();
  });

  it("a retry that finds the used-state store down gets 503 and works once the store is back", async () => {
    let down = true;
    const seen = new Set<string>();
    const { ran, send, handler } = server({
      use: async (nonce) => {
        if (down) throw new Error("redis: connection is closed");
        if (seen.has(nonce)) return false;
        seen.add(nonce);
        return true;
      },
    });
    const asked = await send(1, "tools/call", { name: "pay", arguments: { amount: 1 } });
    const answers = {
      inputResponses: { confirm: { action: "accept", content: {} } },
      requestState: asked.body.result?.["requestState"],
    };
    const refused = await send(2, "tools/call", { name: "pay", arguments: { amount: 1 }, ...answers });
    expect(refused).toMatchObject({ status: 503, retryAfter: "1" });
    expect(JSON.stringify(refused.body)).not.toMatch(/redis/);
    down = false;
    const retry = await send(3, "tools/call", { name: "pay", arguments: { amount: 1 }, ...answers });
    expect(retry).toMatchObject({ status: 200, body: { result: { content: [{ text: "paid" }] } } });
    expect(ran).toEqual(['pay {"amount":1}']);
    handler.close();
  });
});
