import { describe, expect, it } from "vitest";
import * as root from "../../generated/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as oldest from "../../generated/2024-11-05/index.js";
import * as modern from "../../generated/2026-07-28/index.js";

/** JSON-RPC 2.0 section 5: an error response carries a null id when the request's id could not be read. */
const NULL_ID_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}';

describe.each([
  ["2024-11-05", oldest.parse, oldest.errorResponse],
  ["2025-11-25", legacy.parse, legacy.errorResponse],
  ["2026-07-28", modern.parse, modern.errorResponse],
] as const)("%s: id-null error responses", (_version, parse, errorResponse) => {
  it("parse keeps the real error code instead of refusing the message", () => {
    const parsed = parse(NULL_ID_ERROR);
    expect(parsed).toEqual({
      ok: true,
      message: { kind: "error", jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
    });
    expect(parse(NULL_ID_ERROR, { validate: true }).ok).toBe(true);
  });

  it("a request or a result with a null id is still -32600", () => {
    for (const text of [
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"result":{}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"},"result":{}}',
    ]) {
      const parsed = parse(text);
      expect(parsed.ok ? "parsed" : parsed.error.code, text).toBe(-32600);
    }
  });

  it("errorResponse(null, …) builds one, and it round-trips", () => {
    const built = errorResponse(null, -32700, "Parse error");
    expect(built).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    expect(JSON.stringify(built)).toBe(NULL_ID_ERROR);
  });
});

describe("the version-agnostic runtime", () => {
  it("parses id-null errors and builds them only through errorResponse", () => {
    expect(root.parse(NULL_ID_ERROR)).toMatchObject({ ok: true, message: { kind: "error", id: null } });
    expect(root.errorResponse(null, "ParseError", "Parse error")).toEqual(JSON.parse(NULL_ID_ERROR));
  });

  it("takes any release's ClientCapabilities and encodes any release's builder output", () => {
    const capabilities: modern.ClientCapabilities = { elicitation: { form: {} } };
    const message = root.request(
      "tools/list",
      {},
      { id: 1, protocolVersion: "2026-07-28", clientCapabilities: capabilities },
    );
    expect(message.params?._meta).toMatchObject({ "io.modelcontextprotocol/clientCapabilities": capabilities });
    const text = root.encode(modern.resultResponse<"tools/list">(1, { tools: [], ttlMs: 0, cacheScope: "private" }));
    expect(JSON.parse(text)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [], ttlMs: 0, cacheScope: "private", resultType: "complete" },
    });
  });
});
