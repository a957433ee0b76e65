import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import * as legacy from "../generated/2025-11-25/index.js";
import * as modern from "../generated/2026-07-28/index.js";
import { REAL_SCHEMA_DIR } from "./support/tmp-project.ts";

/** Every kind of answer the dispatchers give, judged by Ajv on the official schema of the release. */
function official(version: string): (definition: string, value: unknown) => string | null {
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv, { mode: "fast" });
  ajv.addSchema(JSON.parse(readFileSync(join(REAL_SCHEMA_DIR, version, "schema.json"), "utf8")) as object, "mcp");
  return (definition, value) => {
    const check = ajv.getSchema(`mcp#/$defs/${definition}`)!;
    return check(value) ? null : `${definition}: ${ajv.errorsText(check.errors)} in ${JSON.stringify(value)}`;
  };
}

const meta = (version = "2026-07-28") => ({ "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} });

describe("2026-07-28 dispatcher answers fit the official schema", () => {
  const check = official("2026-07-28");
  const server = modern.createServerDispatcher(
    {
      "tools/call": (params, ctx) => {
        if (params.name === "sampling") ctx.requireClientCapability("sampling");
        if (params.name === "boom") throw new Error("x");
        if (params.name === "ask") return { resultType: "input_required", inputRequests: { r: { method: "roots/list", params: { _meta: meta() } } } };
        return { content: [{ type: "text", text: "ok" }] };
      },
      "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "private" }),
    },
    { onError: () => undefined },
  );
  const cases: [string, unknown, string[]][] = [
    ["a result", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", _meta: meta() } }, ["CallToolResultResponse", "JSONRPCMessage"]],
    ["an input_required result", { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask", _meta: meta() } }, ["CallToolResultResponse"]],
    ["a list result", { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta() } }, ["ListToolsResultResponse"]],
    ["-32601", { jsonrpc: "2.0", id: 4, method: "prompts/list", params: { _meta: meta() } }, ["JSONRPCErrorResponse", "error:MethodNotFoundError"]],
    ["-32602", { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: 5, _meta: meta() } }, ["JSONRPCErrorResponse", "error:InvalidParamsError"]],
    ["-32602 for missing _meta", { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "t" } }, ["JSONRPCErrorResponse", "error:InvalidParamsError"]],
    ["-32022", { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "t", _meta: meta("1999-01-01") } }, ["UnsupportedProtocolVersionError"]],
    ["-32021", { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "sampling", _meta: meta() } }, ["MissingRequiredClientCapabilityError"]],
    ["-32603", { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "boom", _meta: meta() } }, ["JSONRPCErrorResponse", "error:InternalError"]],
    ["-32700 with no id", "{oops", ["JSONRPCErrorResponse", "error:ParseError"]],
    ["-32600 with no id", "[1]", ["JSONRPCErrorResponse", "error:InvalidRequestError"]],
    ["-32602 for params by position", { jsonrpc: "2.0", id: 10, method: "tools/list", params: [] }, ["JSONRPCErrorResponse", "error:InvalidParamsError"]],
  ];
  it.each(cases)("%s", async (_label, message, definitions) => {
    const response = await server.handle(message);
    // `error:X` judges the error object alone: the schema's MethodNotFoundError & co. describe `error`, not the response.
    const judged = definitions.map((d) => (d.startsWith("error:") ? check(d.slice(6), (response as { error?: unknown }).error) : check(d, response)));
    expect(judged.filter((e) => e !== null)).toEqual([]);
  });
});

describe.each(["2025-11-25", "2026-07-28"])("the official schema (%s) wants params to be an object", (version) => {
  // JSON-RPC 2.0 §4.2 allows params by position; MCP's JSONRPCRequest does not, so such a request is well formed but its params are invalid (-32602).
  it.each([[[]], [[1]], ["x"], [null]])("refuses params %j", (params) => {
    expect(official(version)("JSONRPCRequest", { jsonrpc: "2.0", id: 1, method: "tools/list", params })).not.toBeNull();
  });
});

describe("2025-11-25 dispatcher answers fit the official schema", () => {
  const check = official("2025-11-25");
  const server = legacy.createServerDispatcher({ "tools/list": () => ({ tools: [] }) });
  it.each([
    ["a result", { jsonrpc: "2.0", id: 1, method: "tools/list" }, "JSONRPCResultResponse"],
    ["-32601", { jsonrpc: "2.0", id: 2, method: "prompts/list" }, "JSONRPCErrorResponse"],
    ["-32602", { jsonrpc: "2.0", id: 3, method: "tools/list", params: { cursor: 1 } }, "JSONRPCErrorResponse"],
    ["-32700 with no id", "{oops", "JSONRPCErrorResponse"],
    ["-32602 for params by position", { jsonrpc: "2.0", id: 4, method: "tools/list", params: [] }, "JSONRPCErrorResponse"],
  ] as const)("%s", async (_label, message, definition) => {
    expect(check(definition, await server.handle(message))).toBeNull();
  });
});
