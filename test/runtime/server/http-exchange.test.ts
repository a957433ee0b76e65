import { describe, expect, it } from "vitest";
import { acceptance, failReply, randomId } from "../../../generator/runtime/server/http-exchange.ts";

describe("http-exchange helpers", () => {
  it.each([
    [undefined, { json: true, sse: true }],
    ["*/*", { json: true, sse: true }],
    ["application/*", { json: true, sse: false }],
    ["text/*", { json: false, sse: true }],
    ["text/html", { json: false, sse: false }],
  ])("Accept %j → %j", (accept, plan) => {
    expect(acceptance(accept === undefined ? {} : { accept })).toEqual(plan);
  });

  it("a failure is a JSON-RPC error with the request's id when it has one", () => {
    const reply = failReply(404, -32600, "Session not found", { "x-a": "1" }, 7);
    expect(reply).toEqual({
      status: 404,
      headers: { "x-a": "1", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: "Session not found" } }),
    });
  });

  it("ids are 128 random bits in hex", () => {
    const ids = new Set(Array.from({ length: 100 }, randomId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });
});
