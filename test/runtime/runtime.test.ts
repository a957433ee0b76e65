import { describe, expect, it } from "vitest";
import * as mcp from "../../generated/index.ts";
import * as v2025_11_25 from "../../generated/2025-11-25/index.ts";
import * as v2026_07_28 from "../../generated/2026-07-28/index.ts";

const PV = "io.modelcontextprotocol/protocolVersion";
const CAPS = "io.modelcontextprotocol/clientCapabilities";
const paramsOf = (msg: { params?: unknown }) => msg.params as Record<string, unknown> | undefined;

describe("the seed's invariants", () => {
  it("no _meta in legacy requests", () => {
    for (const version of mcp.LEGACY_VERSIONS) {
      const msg = mcp.request("tools/call", { name: "echo" }, { id: 1 });
      expect(paramsOf(msg)).toEqual({ name: "echo" });
      expect(mcp.request("ping", undefined, { id: 2 })).toEqual({ jsonrpc: "2.0", id: 2, method: "ping" });
      const built = mcp.request(
        "initialize",
        { protocolVersion: version, capabilities: {}, clientInfo: mcp.clientInfo() },
        { id: 3 },
      );
      expect(paramsOf(built)).not.toHaveProperty("_meta");
    }
    // The per-version legacy builder does not invent one either.
    expect(paramsOf(v2025_11_25.request("tools/call", { name: "echo" }, { id: 1 }))).not.toHaveProperty("_meta");
  });

  it("_meta kept for an unlisted version when protocolVersion is given", () => {
    const unlisted = "2099-01-01";
    expect((mcp.VERSIONS as readonly string[]).includes(unlisted)).toBe(false);
    const msg = mcp.request("tools/list", {}, { id: 1, protocolVersion: unlisted });
    const meta = paramsOf(msg)?.["_meta"] as Record<string, unknown>;
    expect(meta[PV]).toBe(unlisted);
    expect(meta[CAPS]).toEqual(mcp.DEFAULT_CLIENT_CAPABILITIES);
    expect(mcp.protocolVersionOf(msg)).toBe(unlisted);
    expect(mcp.httpHeaders(msg)["MCP-Protocol-Version"]).toBe(unlisted);
    // Even a listed legacy version gets _meta when the caller asks for it: the caller decides, not the number.
    expect(mcp.protocolVersionOf(mcp.request("tools/list", {}, { id: 2, protocolVersion: "2025-06-18" }))).toBe(
      "2025-06-18",
    );
  });

  it("notifications never carry id", () => {
    const built = [
      mcp.notification("notifications/initialized"),
      mcp.notification("notifications/progress", { progressToken: 1, progress: 1 }),
      mcp.notification("notifications/cancelled", { requestId: 5 }),
      v2026_07_28.notification("notifications/tools/list_changed"),
      v2025_11_25.notification("notifications/roots/list_changed"),
    ];
    for (const n of built) {
      expect(n).not.toHaveProperty("id");
      const parsed = mcp.parse(mcp.encode(n));
      expect(parsed.ok && parsed.message.kind).toBe("notification");
    }
  });

  it("resultType only towards modern clients", () => {
    for (const legacy of mcp.LEGACY_VERSIONS) {
      expect(mcp.resultResponse(1, { content: [] }, { protocolVersion: legacy }).result).not.toHaveProperty(
        "resultType",
      );
      expect(
        mcp.resultResponse(1, { content: [], resultType: "complete" }, { protocolVersion: legacy }).result,
      ).toEqual({ content: [] });
      expect(() => mcp.resultResponse(1, {}, { protocolVersion: legacy, resultType: "input_required" })).toThrow(
        RangeError,
      );
    }
    expect(mcp.resultResponse(1, { content: [] }).result).not.toHaveProperty("resultType");
    for (const modern of [...mcp.MODERN_VERSIONS, "2099-01-01"]) {
      expect(mcp.resultResponse(1, { content: [] }, { protocolVersion: modern }).result).toEqual({
        content: [],
        resultType: "complete",
      });
    }
    const input = mcp.resultResponse(
      1,
      { inputRequests: {} },
      { protocolVersion: "2026-07-28", resultType: "input_required", serverInfo: { name: "s", version: "1" } },
    );
    expect(input.result).toEqual({
      inputRequests: {},
      resultType: "input_required",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
    });
  });

  it("bestLegacyVersion picks the newest common legacy version, else 2025-11-25", () => {
    expect(mcp.bestLegacyVersion(["2024-11-05", "2025-03-26", "2026-07-28"])).toBe("2025-03-26");
    expect(mcp.bestLegacyVersion(["2025-06-18", "2025-11-25"])).toBe("2025-11-25");
    expect(mcp.bestLegacyVersion(["2024-10-07"])).toBe("2025-11-25");
    expect(mcp.bestLegacyVersion([])).toBe("2025-11-25");
    expect(mcp.bestLegacyVersion(["2026-07-28"])).toBe("2025-11-25");
  });

  it("-32002 is recognised by errorName but no builder emits it", () => {
    expect(mcp.errorName(-32002)).toBe("ResourceNotFound");
    expect(mcp.ErrorCode.ResourceNotFound).toBe(-32002);
    expect(() => mcp.errorResponse(1, -32002, "gone")).toThrow(RangeError);
    expect(() => mcp.errorResponse(1, "ResourceNotFound" as never, "gone")).toThrow(RangeError);
    for (const v of ["2024-11-05", "2025-11-25"] as const) {
      const mod = v === "2025-11-25" ? v2025_11_25 : (mcp.v2024_11_05 as unknown as typeof v2025_11_25);
      expect(() => mod.errorResponse(1, -32002, "gone")).toThrow(RangeError);
    }
    const parsed = mcp.parse('{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Resource not found"}}');
    expect(parsed.ok && mcp.responseError(parsed.message)).toEqual({
      code: -32002,
      message: "Resource not found",
      data: undefined,
    });
  });
});

describe("runtime functions", () => {
  it("clientInfo and DEFAULT_CLIENT_CAPABILITIES: elicitation + MCP Apps, never roots or sampling", () => {
    expect(mcp.clientInfo("app", "2.0")).toEqual({ name: "app", version: "2.0" });
    expect(mcp.clientInfo()).toHaveProperty("name");
    expect(Object.keys(mcp.DEFAULT_CLIENT_CAPABILITIES).sort()).toEqual(["elicitation", "extensions"]);
    expect(mcp.DEFAULT_CLIENT_CAPABILITIES.extensions[mcp.UI_EXTENSION_ID]).toEqual({
      mimeTypes: ["text/html;profile=mcp-app"],
    });
    expect(mcp.UI_EXTENSION_ID).toBe("io.modelcontextprotocol/ui");
    expect(Object.isFrozen(mcp.DEFAULT_CLIENT_CAPABILITIES)).toBe(true);
  });

  it("a modern generic request carries clientInfo, logLevel, progressToken and extra keys; the reserved keys win", () => {
    const msg = mcp.request(
      "tools/call",
      { name: "t" },
      {
        id: "r1",
        protocolVersion: "2026-07-28",
        clientInfo: mcp.clientInfo("c", "1"),
        clientCapabilities: {},
        logLevel: "debug",
        progressToken: "p",
        extraMeta: { "com.example/trace": "x", [PV]: "spoofed" },
      },
    );
    expect(paramsOf(msg)?.["_meta"]).toEqual({
      "com.example/trace": "x",
      [PV]: "2026-07-28",
      [CAPS]: {},
      "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
      "io.modelcontextprotocol/logLevel": "debug",
      progressToken: "p",
    });
  });

  it("responseResult / responseError / resultType / isInputRequired", () => {
    const ok = mcp.resultResponse(1, { content: [] }, { protocolVersion: "2026-07-28" });
    expect(mcp.responseResult(ok)).toEqual({ content: [], resultType: "complete" });
    expect(mcp.responseError(ok)).toBeUndefined();
    const err = mcp.errorResponse(1, "InvalidParams", "bad", { field: "name" });
    expect(mcp.responseError(err)).toEqual({ code: -32602, message: "bad", data: { field: "name" } });
    expect(mcp.responseResult(err)).toBeUndefined();
    expect(mcp.resultType({})).toBe("complete");
    expect(mcp.resultType({ resultType: "input_required" })).toBe("input_required");
    expect(mcp.isInputRequired({ resultType: "input_required" })).toBe(true);
    expect(mcp.isInputRequired({})).toBe(false);
  });

  it("MODERN_SIGNAL_CODES decide the fallback: -32020/-32021/-32022 mean modern, anything else legacy", () => {
    expect([...mcp.MODERN_SIGNAL_CODES]).toEqual([-32020, -32021, -32022]);
    for (const code of [-32020, -32021, -32022]) expect(mcp.isModernSignal(code)).toBe(true);
    for (const code of [-32601, -32602, -32600, -32603, -32002, -32000]) expect(mcp.isModernSignal(code)).toBe(false);
  });

  it("unsupportedProtocolVersionError always carries data.supported; missing-capability names what is missing", () => {
    expect(mcp.unsupportedProtocolVersionError(1, "2099-01-01").error).toEqual({
      code: -32022,
      message: "Unsupported protocol version",
      data: { requested: "2099-01-01", supported: [...mcp.VERSIONS] },
    });
    expect(mcp.missingRequiredClientCapabilityError(undefined, { elicitation: {} })).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32021,
        message: "Missing required client capability",
        data: { requiredCapabilities: { elicitation: {} } },
      },
    });
  });

  it("routingName: tools/call and prompts/get use params.name, resources/read params.uri, others nothing", () => {
    const caps = { protocolVersion: "2026-07-28" };
    expect(mcp.routingName(mcp.request("tools/call", { name: "t" }, { id: 1, ...caps }))).toBe("t");
    expect(mcp.routingName(mcp.request("prompts/get", { name: "p" }, { id: 1, ...caps }))).toBe("p");
    expect(mcp.routingName(mcp.request("resources/read", { uri: "file:///x" }, { id: 1, ...caps }))).toBe("file:///x");
    expect(mcp.routingName(mcp.request("tools/list", {}, { id: 1, ...caps }))).toBeUndefined();
    expect(mcp.httpHeaders(mcp.request("tools/list", {}, { id: 1, ...caps }))).toEqual({
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/list",
    });
  });

  it("uiResourceUri reads the nested _meta.ui.resourceUri, else the flat ui/resourceUri", () => {
    expect(mcp.uiResourceUri({ _meta: { ui: { resourceUri: "ui://nested" }, "ui/resourceUri": "ui://flat" } })).toBe(
      "ui://nested",
    );
    expect(mcp.uiResourceUri({ _meta: { "ui/resourceUri": "ui://flat" } })).toBe("ui://flat");
    expect(mcp.uiResourceUri({ _meta: { ui: {} } })).toBeUndefined();
    expect(mcp.uiResourceUri({})).toBeUndefined();
  });

  it("MetaKey and ErrorCode span all versions", () => {
    expect(mcp.MetaKey.protocolVersion).toBe(PV);
    expect(mcp.MetaKey.progressToken).toBe("progressToken");
    expect(mcp.ErrorCode.URLElicitationRequired).toBe(-32042);
    expect(mcp.ErrorCode.HeaderMismatch).toBe(-32020);
    expect(mcp.errorName(-32601)).toBe("MethodNotFound");
    expect(mcp.errorName(12345)).toBeUndefined();
  });

  it("parse rejects what is not a JSON-RPC 2.0 message with the right code", () => {
    const cases: [string, number][] = [
      ["{not json", -32700],
      ["", -32700],
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600],
      ['{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}', -32600],
      ['{"id":1,"method":"ping"}', -32600],
      ['{"jsonrpc":"1.0","id":1,"method":"ping"}', -32600],
      ["42", -32600],
      ["null", -32600],
      ['[{"jsonrpc":"2.0","method":"ping","id":1}]', -32600],
      ['{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}', -32602],
      ['{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}', -32602],
      ['{"jsonrpc":"2.0","id":1,"method":"ping","params":null}', -32600],
      ['{"jsonrpc":"2.0","id":1,"result":[]}', -32600],
      ['{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}', -32600],
    ];
    for (const [text, code] of cases) {
      const outcome = mcp.parse(text);
      expect(outcome.ok, text).toBe(false);
      if (!outcome.ok) expect(outcome.error.code, text).toBe(code);
    }
  });

  it("Object.prototype is unchanged after parsing __proto__ and constructor keys", () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const texts = [
      '{"__proto__":{"x":1},"jsonrpc":"2.0","method":"a"}',
      '{"jsonrpc":"2.0","method":"a","params":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}',
      '{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"polluted":true}}}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","__proto__":{"polluted":true},"data":{"__proto__":{"polluted":true}}}}',
    ];
    for (const text of texts) {
      const outcome = mcp.parse(text);
      expect(outcome.ok).toBe(true);
      if (outcome.ok) mcp.parse(mcp.encode(outcome.message));
    }
    const probe: Record<string, unknown> = {};
    expect(probe["x"]).toBeUndefined();
    expect(probe["polluted"]).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    const built = mcp.request(
      "tools/call",
      JSON.parse('{"name":"t","__proto__":{"polluted":true}}') as { name: string },
      {
        id: 1,
        protocolVersion: "2026-07-28",
        extraMeta: JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>,
      },
    );
    expect(Object.getPrototypeOf(built.params)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("a 100,000-deep nested array is handled without crashing", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const top = mcp.parse(deep);
    expect(top.ok).toBe(false);
    // Past MAX_NESTING (128) a message is refused before anything recurses into it (jsonrpc.test.ts).
    const inside = mcp.parse(`{"jsonrpc":"2.0","method":"x","params":{"a":${deep}}}`);
    expect(inside).toMatchObject({ ok: false, error: { code: -32602 } });
    const unclosed = mcp.parse(`{"jsonrpc":"2.0","method":"x","params":{"a":${"[".repeat(100_000)}}}`);
    expect(unclosed).toMatchObject({ ok: false, error: { code: -32700 } });
    expect(v2026_07_28.parse(`{"jsonrpc":"2.0","method":"x","params":{"a":${deep}}}`, { validate: true }).ok).toBe(
      false,
    );
  });
});
