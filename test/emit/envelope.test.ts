import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as Core from "@modelcontextprotocol/core";
import * as Sdk from "@modelcontextprotocol/sdk/types.js";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { paramsFor, resultFor } from "../fixtures/envelope/params.ts";
import { REAL_SCHEMA_DIR } from "../support/tmp-project.ts";
import { importGenerated } from "../support/test-tree.ts";

/** The per-version surface these tests drive; typed loosely so one loop covers every version. */
interface VersionModule {
  PROTOCOL_VERSION: string;
  ERA: "legacy" | "modern";
  METHODS: Record<
    string,
    { kind: string; directions: readonly string[]; results: readonly string[]; paramsRequired: boolean }
  >;
  request(method: string, params: unknown, options: Record<string, unknown>): Record<string, unknown>;
  notification(method: string, params?: unknown): Record<string, unknown>;
  resultResponse(id: number, result: unknown, options?: Record<string, unknown>): Record<string, unknown>;
  errorResponse(
    id: number | undefined,
    code: number | string,
    message: string,
    data?: unknown,
  ): Record<string, unknown>;
  unsupportedProtocolVersionError?(
    id: number,
    requested: string,
    supported: readonly string[],
  ): Record<string, unknown>;
  missingRequiredClientCapabilityError?(id: number, required: unknown): Record<string, unknown>;
  headerMismatchError?(id: number, message: string): Record<string, unknown>;
  httpHeaders?(envelope: unknown): Record<string, string>;
  protocolVersionOf?(envelope: unknown): string | undefined;
  parse(
    text: string,
    options?: { validate?: boolean },
  ): { ok: true; message: Record<string, unknown> } | { ok: false; error: { code: number; message: string } };
  encode(message: unknown): string;
  errorName(code: number): string | undefined;
}

const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
const mods = new Map<string, VersionModule>();
for (const v of VERSIONS) mods.set(v, (await importGenerated(`${v}/index.ts`)) as VersionModule);
const mod = (v: string) => mods.get(v)!;

/** One Ajv per version, in the schema's own dialect; `check(def, value)` returns Ajv's errors or null. */
function schemaChecker(version: string) {
  const schema = JSON.parse(readFileSync(join(REAL_SCHEMA_DIR, version, "schema.json"), "utf8")) as Record<
    string,
    unknown
  >;
  const modern2020 = "$defs" in schema;
  const ajv = modern2020
    ? new Ajv2020({ strict: false, allErrors: false })
    : new Ajv({ strict: false, allErrors: false });
  addFormats.default(ajv);
  ajv.addSchema(schema, "mcp");
  const cache = new Map<string, ValidateFunction>();
  return (definition: string, value: unknown) => {
    let fn = cache.get(definition);
    if (!fn) {
      fn = ajv.getSchema(`mcp#/${modern2020 ? "$defs" : "definitions"}/${definition}`)!;
      cache.set(definition, fn);
    }
    return fn(value) ? null : JSON.stringify(fn.errors?.slice(0, 3));
  };
}

/** The official SDK's zod schemas for the direction a message travels in. */
function sdkFor(version: string) {
  const lib = version >= "2026-07-28" ? (Core as unknown as typeof Sdk) : Sdk;
  return {
    message: lib.JSONRPCMessageSchema,
    request: (dir: string) => (dir === "client-to-server" ? lib.ClientRequestSchema : lib.ServerRequestSchema),
    notification: (dir: string) =>
      dir === "client-to-server" ? lib.ClientNotificationSchema : lib.ServerNotificationSchema,
    result: (dir: string) => (dir === "client-to-server" ? lib.ServerResultSchema : lib.ClientResultSchema),
  };
}

const CAPS = { elicitation: {} };
function definitions(version: string): Record<string, { properties?: Record<string, { const?: unknown }> }> {
  const schema = JSON.parse(readFileSync(join(REAL_SCHEMA_DIR, version, "schema.json"), "utf8")) as {
    definitions?: object;
    $defs?: object;
  };
  return (schema.$defs ?? schema.definitions) as Record<string, { properties?: Record<string, { const?: unknown }> }>;
}

/** The message definition of a method and whether it declares `jsonrpc` (up to 2025-06-18 it does not). */
function methodDefinition(version: string, method: string): { name: string; withEnvelope: boolean } {
  for (const [name, def] of Object.entries(definitions(version))) {
    if (def.properties?.["method"]?.const === method && !name.endsWith("Response"))
      return { name, withEnvelope: "jsonrpc" in def.properties };
  }
  throw new Error(`no definition for ${method}`);
}

describe.each(VERSIONS)("envelope builders of %s", (version) => {
  const m = mod(version);
  const check = schemaChecker(version);
  const sdk = sdkFor(version);
  const modern = m.ERA === "modern";
  const envelopeDef = (kind: string) => (kind === "request" ? "JSONRPCRequest" : "JSONRPCNotification");
  const sent = Object.entries(m.METHODS).filter(([, info]) => info.kind !== "input");

  it.each(sent)(
    "%s: built message fits the schema (envelope and method definition) and the official SDK",
    (method, info) => {
      const params = paramsFor(method, version);
      const msg =
        info.kind === "request"
          ? m.request(method, params, { id: 7, clientCapabilities: CAPS })
          : m.notification(method, params);
      expect(check(envelopeDef(info.kind), msg)).toBeNull();
      const def = methodDefinition(version, method);
      // Definitions without jsonrpc/id describe the payload part only: validate that part against them.
      const payload = def.withEnvelope
        ? msg
        : { method: msg["method"], ...(msg["params"] === undefined ? {} : { params: msg["params"] }) };
      expect(check(def.name, payload)).toBeNull();
      expect(check("JSONRPCMessage", msg)).toBeNull();
      expect(sdk.message.safeParse(msg).success).toBe(true);
      for (const dir of info.directions) {
        const schema = info.kind === "request" ? sdk.request(dir) : sdk.notification(dir);
        const outcome = schema.safeParse(msg);
        expect(outcome.success, `${dir}: ${outcome.error?.message ?? ""}`).toBe(true);
      }
    },
  );

  it.each(sent.filter(([, info]) => info.kind === "request"))(
    "%s: result response fits the schema and the official SDK",
    (method, info) => {
      const msg = m.resultResponse(7, resultFor(method, version));
      expect(check(version >= "2025-11-25" ? "JSONRPCResultResponse" : "JSONRPCResponse", msg)).toBeNull();
      expect(check(info.results[0]!, msg["result"])).toBeNull();
      expect(sdk.message.safeParse(msg).success).toBe(true);
      const outcome = sdk.result(info.directions[0]!).safeParse(msg["result"]);
      expect(outcome.success, outcome.error?.message).toBe(true);
    },
  );

  it("error responses fit the schema and the SDK; -32002 is never built", () => {
    const err = m.errorResponse(7, "MethodNotFound", "no such method", { method: "x" });
    expect(err).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32601, message: "no such method", data: { method: "x" } },
    });
    expect(check(version >= "2025-11-25" ? "JSONRPCErrorResponse" : "JSONRPCError", err)).toBeNull();
    expect(sdk.message.safeParse(err).success).toBe(true);
    if (!modern) {
      expect(m.errorName(-32002)).toBe("ResourceNotFound");
      expect(() => m.errorResponse(7, -32002, "gone")).toThrow(RangeError);
      expect(() => m.errorResponse(7, "ResourceNotFound", "gone")).toThrow(RangeError);
    }
  });

  it("a modern request carries version and capabilities in _meta; a legacy one has no _meta", () => {
    const msg = m.request("tools/call", paramsFor("tools/call", version), { id: 1, clientCapabilities: CAPS });
    const params = msg["params"] as Record<string, unknown>;
    if (modern) {
      expect(params["_meta"]).toEqual({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": CAPS,
      });
    } else {
      expect(params).not.toHaveProperty("_meta");
      expect(m.resultResponse(1, { content: [] })["result"]).not.toHaveProperty("resultType");
    }
  });

  it("parse(encode(m)) returns each built message with its kind", () => {
    const req = m.request(
      "ping" in m.METHODS ? "ping" : "tools/list",
      paramsFor("ping" in m.METHODS ? "ping" : "tools/list", version),
      { id: "a", clientCapabilities: CAPS },
    );
    const parsed = m.parse(m.encode(req));
    expect(parsed).toEqual({ ok: true, message: { kind: "request", ...req } });
    if (parsed.ok) expect(m.encode(parsed.message)).toBe(m.encode(req));
  });

  it("parse({ validate: true }) rejects params that do not fit this version's schema", () => {
    const bad = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 42 } });
    expect(m.parse(bad).ok).toBe(true);
    const checked = m.parse(bad, { validate: true });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error.code).toBe(-32602);
    const good = m.request("tools/call", paramsFor("tools/call", version), { id: 1, clientCapabilities: CAPS });
    expect(m.parse(JSON.stringify(good), { validate: true }).ok).toBe(true);
  });
});

describe("modern-only envelope helpers (2026-07-28)", () => {
  const m = mod("2026-07-28");
  const check = schemaChecker("2026-07-28");

  it("the SEP-2575 errors fit their schema definitions and always carry their data", () => {
    const unsupported = m.unsupportedProtocolVersionError!(1, "2099-01-01", ["2026-07-28"]);
    expect(unsupported["error"]).toMatchObject({
      code: -32022,
      data: { requested: "2099-01-01", supported: ["2026-07-28"] },
    });
    expect(check("UnsupportedProtocolVersionError", unsupported)).toBeNull();
    const missing = m.missingRequiredClientCapabilityError!(1, { elicitation: {} });
    expect(missing["error"]).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect(check("MissingRequiredClientCapabilityError", missing)).toBeNull();
    const mismatch = m.headerMismatchError!(1, "MCP-Protocol-Version differs from _meta");
    expect(check("HeaderMismatchError", mismatch)).toBeNull();
  });

  it("resultResponse writes resultType (default complete) and serverInfo", () => {
    const msg = m.resultResponse(3, { content: [] }, { serverInfo: { name: "s", version: "1" } });
    expect(msg["result"]).toEqual({
      content: [],
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
    });
    expect(check("CallToolResult", msg["result"])).toBeNull();
  });

  it("httpHeaders of every built request agree with its _meta and method", () => {
    for (const [method, info] of Object.entries(m.METHODS)) {
      if (info.kind !== "request") continue;
      const msg = m.request(method, paramsFor(method, "2026-07-28"), {
        id: 1,
        clientCapabilities: CAPS,
        protocolVersion: "2026-07-28",
      });
      const headers = m.httpHeaders!(msg);
      const meta = (msg["params"] as { _meta: Record<string, unknown> })._meta;
      expect(headers["MCP-Protocol-Version"]).toBe(meta["io.modelcontextprotocol/protocolVersion"]);
      expect(headers["Mcp-Method"]).toBe(method);
      const key = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" }[method];
      expect(headers["Mcp-Name"]).toBe(key ? (msg["params"] as Record<string, string>)[key] : undefined);
    }
  });

  it("httpHeaders reads the version back from the envelope, not from the module", () => {
    const probe = m.request("tools/list", {}, { id: 1, clientCapabilities: {}, protocolVersion: "2027-03-01" });
    expect(m.httpHeaders!(probe)["MCP-Protocol-Version"]).toBe("2027-03-01");
    expect(m.protocolVersionOf!(probe)).toBe("2027-03-01");
  });

  it("non-ASCII header values are sent as =?base64?…?=", () => {
    const msg = m.request("tools/call", { name: "天气 ☀" }, { id: 1, clientCapabilities: {} });
    const encoded = m.httpHeaders!(msg)["Mcp-Name"]!;
    expect(encoded).toBe(`=?base64?${Buffer.from("天气 ☀", "utf8").toString("base64")}?=`);
    const read = m.request("resources/read", { uri: "file:///ä" }, { id: 2, clientCapabilities: {} });
    expect(m.httpHeaders!(read)["Mcp-Name"]).toBe(`=?base64?${Buffer.from("file:///ä", "utf8").toString("base64")}?=`);
    expect(
      m.httpHeaders!(m.request("tools/call", { name: "plain_ascii-1" }, { id: 3, clientCapabilities: {} }))["Mcp-Name"],
    ).toBe("plain_ascii-1");
  });

  it("a notification gets no Mcp-Name", () => {
    const note = m.notification("notifications/progress", { progressToken: "tools/call", progress: 1 });
    const headers = m.httpHeaders!(note);
    expect(headers).not.toHaveProperty("Mcp-Name");
    expect(headers["Mcp-Method"]).toBe("notifications/progress");
    expect(m.httpHeaders!({ jsonrpc: "2.0", method: "tools/call", params: { name: "x" } })).not.toHaveProperty(
      "Mcp-Name",
    );
  });
});

describe("request builders copy, never change, what the caller passes", () => {
  it.each(VERSIONS)("%s: the caller's params and _meta objects stay as they were", (version) => {
    const params = { name: "echo", arguments: { text: "hi" }, _meta: { "com.example/trace": "t1" } };
    const before = JSON.stringify(params);
    const built = mod(version).request("tools/call", params, {
      id: 1,
      clientCapabilities: CAPS,
      progressToken: "p",
    }) as { params: Record<string, unknown> };
    expect(JSON.stringify(params)).toBe(before);
    expect(built.params).not.toBe(params);
    expect(built.params["_meta"]).toMatchObject({ "com.example/trace": "t1", progressToken: "p" });
  });

  it("params with an own __proto__ key are copied as data, without changing any prototype", () => {
    const params = JSON.parse('{"name": "echo", "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const built = mod("2026-07-28").request("tools/call", params, { id: 1, clientCapabilities: CAPS }) as {
      params: Record<string, unknown>;
    };
    expect(Object.getPrototypeOf(built.params)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(built.params, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});
