import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeHeaderValue } from "../../../generator/runtime/core/header-value.ts";
import {
  checkHttpHeaders,
  httpHeaders,
  httpStatusOf,
  toolHeaderParams,
  type HttpSpec,
} from "../../../generator/runtime/core/http-headers.ts";
import * as modern from "../../../generated/2026-07-28/index.js";
import { GENERATED_DIR } from "../../support/test-tree.ts";

// What the 2026-07-28 emitter writes from schema/facts.json (basic/transports/streamable-http).
const SPEC: HttpSpec = {
  protocolVersionHeader: "MCP-Protocol-Version",
  methodHeader: "Mcp-Method",
  nameHeader: "Mcp-Name",
  paramHeaderPrefix: "Mcp-Param-",
  nameParam: { "prompts/get": "name", "resources/read": "uri", "tools/call": "name" },
  headerAnnotation: "x-mcp-header",
  toolCallMethod: "tools/call",
  argumentsParam: "arguments",
  headerParamTypes: ["boolean", "integer", "string"],
  sentinel: { prefix: "=?base64?", suffix: "?=" },
  protocolVersionMetaKey: "io.modelcontextprotocol/protocolVersion",
  headerMismatchCode: -32020,
  internalErrorCode: -32603,
  errorStatus: {
    "-32020": 400,
    "-32021": 400,
    "-32022": 400,
    "-32601": 404,
    "-32602": 400,
    "-32600": 400,
    "-32700": 400,
  },
  resultStatus: 200,
  acceptedStatus: 202,
};
const S = SPEC.sentinel;
const tool = (inputSchema: unknown, name = "execute_sql") => ({ name, inputSchema });
const sqlTool = tool({
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    query: { type: "string" },
    limit: { type: "integer", "x-mcp-header": "Limit" },
    dry: { type: ["boolean", "null"], "x-mcp-header": "Dry-Run" },
    nested: { type: "object", properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } } },
  },
});

describe("toolHeaderParams: every x-mcp-header constraint", () => {
  it("collects annotated properties reachable through properties, in schema order, with their paths", () => {
    const result = toolHeaderParams(SPEC, sqlTool);
    expect(result).toEqual({
      ok: true,
      params: [
        { name: "Region", header: "Mcp-Param-Region", path: ["region"], type: "string" },
        { name: "Limit", header: "Mcp-Param-Limit", path: ["limit"], type: "integer" },
        { name: "Dry-Run", header: "Mcp-Param-Dry-Run", path: ["dry"], type: "boolean" },
        { name: "Tenant", header: "Mcp-Param-Tenant", path: ["nested", "tenant"], type: "string" },
      ],
    });
  });

  it.each([
    ["empty", { properties: { a: { type: "string", "x-mcp-header": "" } } }, "non-empty HTTP token"],
    ["not a token", { properties: { a: { type: "string", "x-mcp-header": "Re gion" } } }, "HTTP token"],
    ["control character", { properties: { a: { type: "string", "x-mcp-header": "A\r\nX-Evil: 1" } } }, "HTTP token"],
    ["not a string", { properties: { a: { type: "string", "x-mcp-header": 7 } } }, "HTTP token"],
    [
      "duplicate, other case",
      {
        properties: {
          a: { type: "string", "x-mcp-header": "Region" },
          b: { type: "string", "x-mcp-header": "region" },
        },
      },
      "case-insensitive",
    ],
    ["number type", { properties: { a: { type: "number", "x-mcp-header": "A" } } }, "boolean, integer, string"],
    ["object type", { properties: { a: { type: "object", "x-mcp-header": "A" } } }, "boolean, integer, string"],
    ["no type", { properties: { a: { "x-mcp-header": "A" } } }, "boolean, integer, string"],
    ["two types", { properties: { a: { type: ["string", "integer"], "x-mcp-header": "A" } } }, "boolean, integer"],
    [
      "nested past 64 levels",
      {
        properties: { a: Array.from({ length: 70 }).reduce<object>((inner) => ({ items: inner }), { type: "string" }) },
      },
      "nested too deeply",
    ],
    [
      "inside items",
      { properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } } },
      "not reachable",
    ],
    ["inside anyOf", { properties: { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } } }, "not reachable"],
    ["inside $defs", { $defs: { a: { type: "string", "x-mcp-header": "A" } } }, "not reachable"],
    ["on the root", { type: "string", "x-mcp-header": "A" }, "not reachable"],
    ["inside if/then", { if: { properties: { a: { type: "string", "x-mcp-header": "A" } } } }, "not reachable"],
  ])("rejects %s", (_label, inputSchema, reason) => {
    const result = toolHeaderParams(SPEC, tool({ type: "object", ...inputSchema }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it("names the refused annotation by its JSON pointer, keys escaped", () => {
    const refused = tool({
      type: "object",
      properties: { "a/b~c": { anyOf: [{ type: "string", "x-mcp-header": "A" }] } },
    });
    expect(toolHeaderParams(SPEC, refused)).toEqual({
      ok: false,
      reason: `tool "execute_sql": x-mcp-header at /properties/a~1b~0c/anyOf/0 is not reachable from the root through properties alone`,
    });
  });

  it("ignores x-mcp-header keys inside values (const, default, enum, examples)", () => {
    expect(
      toolHeaderParams(
        SPEC,
        tool({ type: "object", properties: { a: { type: "object", default: { "x-mcp-header": "A" } } } }),
      ),
    ).toEqual({ ok: true, params: [] });
  });

  it("a type listed beside null is the argument's type (a null argument sends no header)", () => {
    const result = toolHeaderParams(
      SPEC,
      tool({ type: "object", properties: { a: { type: ["null", "integer"], "x-mcp-header": "A" } } }),
    );
    expect(result).toEqual({ ok: true, params: [{ name: "A", header: "Mcp-Param-A", path: ["a"], type: "integer" }] });
  });

  it("a tool without annotations has none; a non-object inputSchema is invalid", () => {
    expect(toolHeaderParams(SPEC, tool({ type: "object" }))).toEqual({ ok: true, params: [] });
    expect(toolHeaderParams(SPEC, tool(null)).ok).toBe(false);
  });
});

const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const callSql = (args: object, name = "execute_sql") => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name, arguments: args, _meta: meta },
});

describe("httpHeaders", () => {
  it("the page's example: standard headers plus Mcp-Param-Region", () => {
    expect(httpHeaders(SPEC, callSql({ region: "us-west1", query: "SELECT * FROM users" }), { tool: sqlTool })).toEqual(
      {
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "execute_sql",
        "Mcp-Param-Region": "us-west1",
      },
    );
  });

  it("integers in decimal, booleans lowercase, nested paths; null and absent values send no header", () => {
    const headers = httpHeaders(SPEC, callSql({ limit: -7, dry: false, nested: { tenant: "Zoë" }, region: null }), {
      tool: sqlTool,
    });
    expect(headers).toMatchObject({
      "Mcp-Param-Limit": "-7",
      "Mcp-Param-Dry-Run": "false",
      "Mcp-Param-Tenant": "=?base64?Wm/Dqw==?=",
    });
    expect(headers).not.toHaveProperty("Mcp-Param-Region");
  });

  it("Mcp-Name from params.uri for resources/read, encoded when not plain; none for notifications", () => {
    expect(
      httpHeaders(SPEC, { id: 2, method: "resources/read", params: { uri: "file:///größe.txt", _meta: meta } })[
        "Mcp-Name"
      ],
    ).toBe(encodeHeaderValue("file:///größe.txt", S));
    expect(httpHeaders(SPEC, { method: "notifications/cancelled", params: { requestId: 1 } })).toEqual({
      "Mcp-Method": "notifications/cancelled",
    });
  });

  it("throws a RangeError for what no header can carry", () => {
    expect(() => httpHeaders(SPEC, callSql({ limit: 1.5 }), { tool: sqlTool })).toThrow(RangeError);
    expect(() => httpHeaders(SPEC, callSql({ limit: 2 ** 53 }), { tool: sqlTool })).toThrow(RangeError);
    expect(() => httpHeaders(SPEC, callSql({ region: 5 }), { tool: sqlTool })).toThrow(RangeError);
    expect(() => httpHeaders(SPEC, callSql({}, "other"), { tool: sqlTool })).toThrow(RangeError);
    expect(() =>
      httpHeaders(SPEC, callSql({}), {
        tool: tool({ type: "object", properties: { a: { type: "number", "x-mcp-header": "A" } } }),
      }),
    ).toThrow(RangeError);
    expect(() => httpHeaders(SPEC, { id: 1, method: "tools/call\r\nX: y" })).toThrow(RangeError);
  });
});

describe("checkHttpHeaders", () => {
  const args = { region: "eu 1 ", query: "q", limit: 42, dry: true, nested: { tenant: "t" } };
  const message = callSql(args);
  const sent = httpHeaders(SPEC, message, { tool: sqlTool });

  it("what httpHeaders builds passes, with header names in any case, as a record, a Headers object or Node's lowercase record", () => {
    expect(checkHttpHeaders(SPEC, sent, message, { tool: sqlTool })).toEqual({ ok: true });
    const lower = Object.fromEntries(Object.entries(sent).map(([k, v]) => [k.toLowerCase(), v]));
    expect(checkHttpHeaders(SPEC, lower, message, { tool: sqlTool })).toEqual({ ok: true });
    expect(checkHttpHeaders(SPEC, new Headers(sent), message, { tool: sqlTool })).toEqual({ ok: true });
  });

  it("integers compare numerically", () => {
    expect(checkHttpHeaders(SPEC, { ...sent, "Mcp-Param-Limit": "42.0" }, message, { tool: sqlTool })).toEqual({
      ok: true,
    });
    expect(checkHttpHeaders(SPEC, { ...sent, "Mcp-Param-Limit": "0x2a" }, message, { tool: sqlTool }).ok).toBe(false);
  });

  it("every tampered, missing or extra header fails with 400 and -32020 carrying the request id", () => {
    const tampered: Record<string, string>[] = [];
    for (const name of Object.keys(sent)) {
      const { [name]: _dropped, ...rest } = sent;
      tampered.push(rest, { ...rest, [name]: sent[name] + "x" }, { ...rest, [name]: "=?base64?" + sent[name] });
    }
    tampered.push(
      { ...sent, "Mcp-Param-Dry-Run": "True" },
      { ...sent, "Mcp-Name": "=?base64?ZXhlY3V0ZV9zcWw=?=x" },
      { ...sent, "Mcp-Method": "tools/list" },
    );
    for (const headers of tampered) {
      const check = checkHttpHeaders(SPEC, headers, message, { tool: sqlTool });
      expect(check, JSON.stringify(headers)).toMatchObject({
        ok: false,
        status: 400,
        response: { jsonrpc: "2.0", id: 1, error: { code: -32020 } },
      });
    }
  });

  it("a header for an argument absent from the body fails; an unknown Mcp-Param header is ignored", () => {
    const noLimit = callSql({ region: "r" });
    expect(
      checkHttpHeaders(SPEC, { ...httpHeaders(SPEC, noLimit, { tool: sqlTool }), "Mcp-Param-Limit": "1" }, noLimit, {
        tool: sqlTool,
      }).ok,
    ).toBe(false);
    expect(
      checkHttpHeaders(SPEC, { ...httpHeaders(SPEC, noLimit, { tool: sqlTool }), "Mcp-Param-Other": "1" }, noLimit, {
        tool: sqlTool,
      }),
    ).toEqual({ ok: true });
  });

  it("an encoded Mcp-Name is decoded before comparing", () => {
    const m = { jsonrpc: "2.0", id: "p", method: "prompts/get", params: { name: "grüße", _meta: meta } };
    expect(checkHttpHeaders(SPEC, httpHeaders(SPEC, m), m)).toEqual({ ok: true });
    expect(checkHttpHeaders(SPEC, { ...httpHeaders(SPEC, m), "Mcp-Name": "gr??e" }, m).ok).toBe(false);
  });

  it("a header sent twice is malformed", () => {
    const m = { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta } };
    expect(checkHttpHeaders(SPEC, { ...httpHeaders(SPEC, m), "mcp-method": "tools/list" }, m).ok).toBe(false);
    expect(checkHttpHeaders(SPEC, { ...httpHeaders(SPEC, m), "Mcp-Method": ["tools/list", "tools/list"] }, m).ok).toBe(
      false,
    );
  });

  it("names lower-cased, as node:http hands them over, read alike: present, missing, or sent twice", () => {
    const m = { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta } };
    const lower = Object.fromEntries(Object.entries(httpHeaders(SPEC, m)).map(([k, v]) => [k.toLowerCase(), v]));
    expect(checkHttpHeaders(SPEC, lower, m)).toEqual({ ok: true });
    expect(checkHttpHeaders(SPEC, { ...lower, "mcp-method": "tools/call" }, m).ok).toBe(false);
    expect(checkHttpHeaders(SPEC, { ...lower, "mcp-method": ["tools/list", "tools/list"] }, m).ok).toBe(false);
    expect(checkHttpHeaders(SPEC, { ...lower, "mcp-method": undefined }, m).ok).toBe(false);
  });

  it("notifications pass: this revision defines no headers for them", () => {
    expect(
      checkHttpHeaders(SPEC, {}, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
    ).toEqual({ ok: true });
  });

  it("never throws, even on hostile header objects", () => {
    const hostile = {
      get() {
        throw new Error("x");
      },
    };
    expect(checkHttpHeaders(SPEC, hostile, message)).toMatchObject({ ok: false, status: 400 });
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), fc.jsonValue(), (headers, body) => {
        const check = checkHttpHeaders(SPEC, headers, typeof body === "object" && body !== null ? body : {}, {
          tool: sqlTool,
        });
        expect(typeof check.ok).toBe("boolean");
      }),
    );
  });

  it("a tampered header value of any kind fails the round trip", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (region, other) => {
        fc.pre(region !== other);
        const m = callSql({ region });
        const headers = httpHeaders(SPEC, m, { tool: sqlTool });
        expect(checkHttpHeaders(SPEC, headers, m, { tool: sqlTool })).toEqual({ ok: true });
        const forged = { ...headers, "Mcp-Param-Region": encodeHeaderValue(other, S) };
        expect(checkHttpHeaders(SPEC, forged, m, { tool: sqlTool }).ok).toBe(false);
      }),
    );
  });
});

describe("httpStatusOf", () => {
  it("gives each error the page's status, results 200 and notifications 202", () => {
    expect(httpStatusOf(SPEC, { error: { code: -32020 } })).toBe(400);
    expect(httpStatusOf(SPEC, { error: { code: -32021 } })).toBe(400);
    expect(httpStatusOf(SPEC, { error: { code: -32022 } })).toBe(400);
    expect(httpStatusOf(SPEC, { error: { code: -32601 } })).toBe(404);
    expect(httpStatusOf(SPEC, { error: { code: -32602 } })).toBe(400);
    expect(httpStatusOf(SPEC, { error: { code: -32603 } })).toBe(200);
    expect(httpStatusOf(SPEC, {})).toBe(200);
    expect(httpStatusOf(SPEC, undefined)).toBe(202);
  });
});

/** The 2026-07-28 header functions as a client and a server use them: build, send, parse, check. */
const sqlToolOf2026: modern.Tool = {
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
    const headers = modern.httpHeaders(message, { tool: sqlToolOf2026 });
    expect(headers).toEqual({
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call",
      "Mcp-Name": "execute_sql",
      "Mcp-Param-Region": "us-west1",
    });
    const parsed = modern.parse(modern.encode(message));
    expect(parsed.ok && modern.checkHttpHeaders(new Headers(headers), parsed.message, { tool: sqlToolOf2026 })).toEqual(
      { ok: true },
    );
  });

  it("a tampered header is 400 with -32020 for the request's id", () => {
    const message = call("Zürich");
    const headers = modern.httpHeaders(message, { tool: sqlToolOf2026 });
    expect(headers["Mcp-Param-Region"]).toBe("=?base64?WsO8cmljaA==?=");
    const check = modern.checkHttpHeaders({ ...headers, "Mcp-Param-Region": "Zurich" }, message, {
      tool: sqlToolOf2026,
    });
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
    const listed = [sqlToolOf2026, bad].filter((t) => modern.toolHeaderParams(t).ok);
    expect(listed.map((t) => t.name)).toEqual(["execute_sql"]);
  });

  it("legacy releases have no header module", () => {
    expect(existsSync(join(GENERATED_DIR, "2025-11-25", "http.ts"))).toBe(false);
  });
});
