import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as modern from "../../generated/2026-07-28/index.js";
import { GENERATED_DIR } from "../support/test-tree.ts";

/** The 2026-07-28 header functions as a client and a server use them: build, send, parse, check. */
const tool: modern.Tool = {
  name: "execute_sql",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" }, query: { type: "string" } },
    required: ["region", "query"],
  },
};

function call(region: string) {
  return modern.request(
    "tools/call",
    { name: "execute_sql", arguments: { region, query: "SELECT 1" } },
    { id: 1, clientCapabilities: {} },
  );
}

describe("2026-07-28 Streamable HTTP headers", () => {
  it("the page's example: what the client builds the server accepts", () => {
    const message = call("us-west1");
    const headers = modern.httpHeaders(message, { tool });
    expect(headers).toEqual({
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "execute_sql",
      "Mcp-Param-Region": "us-west1",
    });
    const parsed = modern.parse(modern.encode(message));
    expect(parsed.ok && modern.checkHttpHeaders(new Headers(headers), parsed.message, { tool })).toEqual({ ok: true });
  });

  it("a tampered header is 400 with -32020 for the request's id", () => {
    const message = call("Zürich");
    const headers = modern.httpHeaders(message, { tool });
    expect(headers["Mcp-Param-Region"]).toBe("=?base64?WsO8cmljaA==?=");
    const check = modern.checkHttpHeaders({ ...headers, "Mcp-Param-Region": "Zurich" }, message, { tool });
    expect(check).toMatchObject({
      ok: false,
      status: 400,
      response: { id: 1, error: { code: modern.ErrorCode.HeaderMismatch } },
    });
    expect(!check.ok && modern.httpStatusOf(check.response)).toBe(400);
  });

  it("toolHeaderParams lets a client drop an invalid tool from tools/list", () => {
    const bad: modern.Tool = {
      name: "bad",
      inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
    };
    const listed = [tool, bad].filter((t) => modern.toolHeaderParams(t).ok);
    expect(listed.map((t) => t.name)).toEqual(["execute_sql"]);
  });

  it("legacy releases have no header module", () => {
    expect(existsSync(join(GENERATED_DIR, "2025-11-25", "http.ts"))).toBe(false);
  });
});
