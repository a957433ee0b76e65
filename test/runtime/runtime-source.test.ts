import { describe, expect, it } from "vitest";
import { pickLegacyVersion, towardsModern } from "../../generator/runtime/versions.ts";
import { uiResourceUriIn } from "../../generator/runtime/apps.ts";
import {
  anyVersionRequest,
  anyVersionResult,
  errorEnvelope,
  errorNameIn,
  headerMismatch,
  missingRequiredClientCapability,
  notificationEnvelope,
  sessionRequest,
  sessionResult,
  statelessRequest,
  statelessResult,
  unsupportedProtocolVersion,
  withMeta,
  type AnyVersionMetaKeys,
  type ErrorCodeTable,
  type RequestOptionsShape,
} from "../../generator/runtime/builders.ts";
import { protocolVersionIn, routingNameIn, type RoutingFacts } from "../../generator/runtime/routing.ts";
import { deepFreeze, describeValue, setOwn } from "../../generator/runtime/json.ts";
import { checkEnvelope, encodeMessage, parseMessage, parseText } from "../../generator/runtime/jsonrpc.ts";
import {
  isInputRequiredIn,
  responseError,
  responseResult,
  resultTypeIn,
  type ResultTypeFacts,
} from "../../generator/runtime/responses.ts";
import { RpcError } from "../../generator/runtime/rpc-error.ts";

/** The runtime as source, tested directly: one row per rule, given → want. */

/** The resultType facts a 2026-07-28 model hands the runtime, and made-up ones that show the runtime reads them. */
const RESULT_TYPE: ResultTypeFacts = { key: "resultType", complete: "complete", inputRequired: "input_required" };
const OTHER: ResultTypeFacts = { key: "kind", complete: "done", inputRequired: "more" };

describe("json helpers", () => {
  it("deepFreeze freezes every nested object and array and returns its argument", () => {
    const value = { a: [{ b: 1 }], c: { d: "x" } };
    expect(deepFreeze(value)).toBe(value);
    expect([value, value.a, value.a[0], value.c].every((v) => Object.isFrozen(v))).toBe(true);
    expect(deepFreeze(3)).toBe(3);
  });

  it("setOwn keeps __proto__ a key", () => {
    const o: { [key: string]: number } = {};
    setOwn(o, "__proto__", 1);
    expect(Object.keys(o)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
  });
});

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

  it.each([
    { given: undefined, want: "missing" },
    { given: "x".repeat(50), want: JSON.stringify("x".repeat(40) + "…") },
    { given: [1, 2], want: "array(2)" },
    { given: null, want: "null" },
    { given: {}, want: "object" },
    { given: 1.5, want: "1.5" },
  ])("describeValue($given) is $want", ({ given, want }) => {
    expect(describeValue(given)).toBe(want);
  });
});

const KEYS = {
  protocolVersion: "pv",
  clientCapabilities: "caps",
  clientInfo: "info",
  logLevel: "log",
  progressToken: "pt",
};
const ANY: AnyVersionMetaKeys = { progressToken: "pt", stateless: { ...KEYS, serverInfo: "si" } };
/** A tree generated for session-based releases only. */
const SESSION_ONLY: AnyVersionMetaKeys = { progressToken: "pt", stateless: null };

describe("request builders, per era", () => {
  const rows: {
    name: string;
    build: (o: RequestOptionsShape) => unknown;
    options: RequestOptionsShape;
    params?: Record<string, unknown>;
    want: unknown;
  }[] = [
    {
      name: "stateless: version and capabilities always",
      build: (o) => statelessRequest("m", undefined, o, "2099-01-01", KEYS),
      options: { id: 1, clientCapabilities: {} },
      want: { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { pv: "2099-01-01", caps: {} } } },
    },
    {
      name: "stateless: reserved keys win over extraMeta and the caller's _meta",
      build: (o) => statelessRequest("m", { a: 1, _meta: { pv: "mine", own: 1 } }, o, "v", KEYS),
      options: {
        id: 1,
        clientCapabilities: {},
        protocolVersion: "probe",
        extraMeta: { x: 1, caps: "lost" },
        logLevel: "info",
        progressToken: 7,
      },
      want: {
        jsonrpc: "2.0",
        id: 1,
        method: "m",
        params: { a: 1, _meta: { x: 1, pv: "probe", own: 1, caps: {}, log: "info", pt: 7 } },
      },
    },
    {
      name: "session: no _meta is invented",
      build: (o) => sessionRequest("m", { a: 1 }, o, "pt"),
      options: { id: "r" },
      want: { jsonrpc: "2.0", id: "r", method: "m", params: { a: 1 } },
    },
    {
      name: "session: a progress token makes a _meta",
      build: (o) => sessionRequest("m", undefined, o, "pt"),
      options: { id: 1, progressToken: "t" },
      want: { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { pt: "t" } } },
    },
    {
      name: "any version: no protocolVersion, no _meta",
      build: (o) => anyVersionRequest("m", undefined, o, ANY, { d: 1 }),
      options: { id: 1 },
      want: { jsonrpc: "2.0", id: 1, method: "m" },
    },
    {
      name: "any version: protocolVersion brings the default capabilities",
      build: (o) => anyVersionRequest("m", {}, o, ANY, { d: 1 }),
      options: { id: 1, protocolVersion: "2099-01-01", clientInfo: { name: "c", version: "1" } },
      want: {
        jsonrpc: "2.0",
        id: 1,
        method: "m",
        params: { _meta: { pv: "2099-01-01", caps: { d: 1 }, info: { name: "c", version: "1" } } },
      },
    },
    {
      name: "any version, session releases only: a progress token still makes a _meta",
      build: (o) => anyVersionRequest("m", undefined, o, SESSION_ONLY, {}),
      options: { id: 1, progressToken: 3 },
      want: { jsonrpc: "2.0", id: 1, method: "m", params: { _meta: { pt: 3 } } },
    },
  ];
  it.each(rows)("$name", ({ build, options, want }) => {
    expect(build(options)).toEqual(want);
  });

  it("any version, session releases only: a stateless protocolVersion throws a RangeError (its _meta keys are unknown)", () => {
    expect(() => anyVersionRequest("m", undefined, { id: 1, protocolVersion: "2026-07-28" }, SESSION_ONLY, {})).toThrow(
      RangeError,
    );
    expect(() => anyVersionResult(1, {}, { protocolVersion: "2026-07-28" }, true, SESSION_ONLY, null)).toThrow(
      RangeError,
    );
  });

  it("a notification never has an id", () => {
    expect(notificationEnvelope("n", { a: 1 })).toEqual({ jsonrpc: "2.0", method: "n", params: { a: 1 } });
  });

  it("withMeta never changes the caller's params, not even through __proto__", () => {
    const params = JSON.parse('{"__proto__":{"x":1},"a":1}') as Record<string, unknown>;
    const copy = withMeta(params, { k: 1 });
    expect(Object.keys(params)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy["_meta"]).toEqual({ k: 1 });
  });
});

describe("response builders, per era", () => {
  it.each([
    { name: "session", got: sessionResult(1, { a: 1 }), want: { jsonrpc: "2.0", id: 1, result: { a: 1 } } },
    {
      name: "stateless: resultType defaults to complete",
      got: statelessResult(1, { a: 1 }, undefined, undefined, "si", RESULT_TYPE),
      want: { jsonrpc: "2.0", id: 1, result: { a: 1, resultType: "complete" } },
    },
    {
      name: "stateless: serverInfo in _meta, the result's own resultType kept",
      got: statelessResult(1, { resultType: "input_required" }, undefined, { name: "s" }, "si", RESULT_TYPE),
      want: { jsonrpc: "2.0", id: 1, result: { resultType: "input_required", _meta: { si: { name: "s" } } } },
    },
    {
      name: "any version towards legacy: resultType dropped",
      got: anyVersionResult(1, { a: 1, resultType: "complete" }, {}, false, ANY, RESULT_TYPE),
      want: { jsonrpc: "2.0", id: 1, result: { a: 1 } },
    },
    {
      name: "any version towards modern",
      got: anyVersionResult(1, {}, { resultType: "x" }, true, ANY, RESULT_TYPE),
      want: { jsonrpc: "2.0", id: 1, result: { resultType: "x" } },
    },
  ])("$name", ({ got, want }) => {
    expect(got).toEqual(want);
  });

  it("another resultType towards a legacy client throws a RangeError", () => {
    expect(() =>
      anyVersionResult(1, {}, { resultType: "input_required", protocolVersion: "2025-06-18" }, false, ANY, RESULT_TYPE),
    ).toThrow(RangeError);
  });

  it.each([
    {
      name: "stateless: the key and default come from the facts",
      got: () => statelessResult(1, { a: 1 }, undefined, undefined, "si", OTHER),
      want: { jsonrpc: "2.0", id: 1, result: { a: 1, kind: "done" } },
    },
    {
      name: "stateless: the result's own value under the facts' key is kept",
      got: () => statelessResult(1, { kind: "more" }, undefined, undefined, "si", OTHER),
      want: { jsonrpc: "2.0", id: 1, result: { kind: "more" } },
    },
    {
      name: "towards legacy: the facts' key is dropped, others kept",
      got: () => anyVersionResult(1, { kind: "done", resultType: "x" }, { resultType: "done" }, false, ANY, OTHER),
      want: { jsonrpc: "2.0", id: 1, result: { resultType: "x" } },
    },
    {
      name: "towards legacy without facts: the result as given",
      got: () => anyVersionResult(1, { resultType: "complete" }, {}, false, ANY, null),
      want: { jsonrpc: "2.0", id: 1, result: { resultType: "complete" } },
    },
  ])("$name", ({ got, want }) => {
    expect(got()).toEqual(want);
  });

  it("without facts (no stateless release generated) no resultType can be asked for, even towards a legacy client", () => {
    expect(() =>
      anyVersionResult(1, {}, { resultType: "complete", protocolVersion: "2025-06-18" }, false, ANY, null),
    ).toThrow("the resultType key is unknown");
    expect(() => anyVersionResult(1, {}, { resultType: "complete" }, false, ANY, OTHER)).toThrow(
      'cannot receive resultType "complete"',
    );
  });

  const table: ErrorCodeTable = {
    codes: {
      Gone: -32002,
      Broken: -32603,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
    },
    receiveOnly: [-32002],
  };
  it.each([
    {
      name: "by name",
      got: () => errorEnvelope(table, 1, "Broken", "m"),
      want: { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "m" } },
    },
    {
      name: "by number, with data",
      got: () => errorEnvelope(table, 1, 7, "m", { d: 1 }),
      want: { jsonrpc: "2.0", id: 1, error: { code: 7, message: "m", data: { d: 1 } } },
    },
    {
      name: "without id",
      got: () => errorEnvelope(table, undefined, 7, "m"),
      want: { jsonrpc: "2.0", error: { code: 7, message: "m" } },
    },
    {
      name: "unsupported version",
      got: () => unsupportedProtocolVersion(table, 1, "x", ["a"]),
      want: {
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32022, message: "Unsupported protocol version", data: { requested: "x", supported: ["a"] } },
      },
    },
    {
      name: "missing capability",
      got: () => missingRequiredClientCapability(table, 1, { s: {} }),
      want: {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32021,
          message: "Missing required client capability",
          data: { requiredCapabilities: { s: {} } },
        },
      },
    },
    {
      name: "header mismatch",
      got: () => headerMismatch(table, 1, "no"),
      want: { jsonrpc: "2.0", id: 1, error: { code: -32020, message: "no" } },
    },
  ])("errorEnvelope $name", ({ got, want }) => {
    expect(got()).toEqual(want);
  });

  it.each([-32002, "Gone", "Unknown"])("refuses to send %s", (code) => {
    expect(() => errorEnvelope(table, 1, code, "m")).toThrow(RangeError);
  });

  it.each([
    { code: -32603, want: "Broken" },
    { code: -32002, want: "Gone" },
    { code: 7, want: undefined },
  ])("errorNameIn names $code $want", ({ code, want }) => {
    expect(errorNameIn(table.codes, code)).toBe(want);
  });
});

describe("routing facts of an envelope", () => {
  const facts: RoutingFacts = {
    protocolVersionHeader: "V",
    methodHeader: "M",
    nameHeader: "N",
    nameParam: { "tools/call": "name" },
    protocolVersionKey: "pv",
  };
  it.each([
    { name: "a routed request", given: { method: "tools/call", id: 1, params: { name: "echo" } }, want: "echo" },
    {
      name: "a notification is never routed",
      given: { method: "tools/call", params: { name: "echo" } },
      want: undefined,
    },
    { name: "an unrouted method", given: { method: "ping", id: 1, params: { name: "echo" } }, want: undefined },
    { name: "a non-string name", given: { method: "tools/call", id: 1, params: { name: 5 } }, want: undefined },
  ])("routingNameIn: $name", ({ given, want }) => {
    expect(routingNameIn(given, facts)).toBe(want);
  });
  it.each([
    { given: { params: { _meta: { pv: "v1" } } }, want: "v1" },
    { given: { params: { _meta: { pv: 1 } } }, want: undefined },
    { given: { params: {} }, want: undefined },
    { given: {}, want: undefined },
  ])("protocolVersionIn($given) is $want", ({ given, want }) => {
    expect(protocolVersionIn(given, "pv")).toBe(want);
  });
});

describe("versions, apps and responses", () => {
  const legacy = ["2025-11-25", "2025-06-18", "2024-11-05"];
  it.each([
    { supported: ["2024-11-05", "2025-06-18"], want: "2025-06-18" },
    { supported: [], want: "2025-11-25" },
    { supported: ["2026-07-28"], want: "2025-11-25" },
  ])("pickLegacyVersion($supported) is $want", ({ supported, want }) => {
    expect(pickLegacyVersion(legacy, supported)).toBe(want);
  });
  it.each([
    { version: "2026-07-28", want: true },
    { version: "2099-01-01", want: true },
    { version: "2025-06-18", want: false },
    { version: "2020-01-01", want: false },
  ])("towardsModern($version) is $want", ({ version, want }) => {
    expect(towardsModern(version, legacy, ["2026-07-28"])).toBe(want);
  });
  const keys = { metaKey: "ui", resourceUriKey: "resourceUri", flatMetaKey: "ui/resourceUri" };
  it.each([
    { tool: { _meta: { ui: { resourceUri: "ui://a" } } }, want: "ui://a" },
    { tool: { _meta: { "ui/resourceUri": "ui://b" } }, want: "ui://b" },
    { tool: { _meta: { ui: { resourceUri: 5 }, "ui/resourceUri": "ui://c" } }, want: "ui://c" },
    { tool: {}, want: undefined },
  ])("uiResourceUriIn → $want", ({ tool, want }) => {
    expect(uiResourceUriIn(tool, keys)).toBe(want);
  });
  it("reads results and errors of any release", () => {
    expect(responseResult({ result: { a: 1 } })).toEqual({ a: 1 });
    expect(responseResult({ error: {} })).toBeUndefined();
    expect(responseError({ error: { code: 1, message: "m" } })).toEqual({ code: 1, message: "m", data: undefined });
    expect(responseError({ error: { code: "1", message: "m" } })).toBeUndefined();
    expect(resultTypeIn({}, RESULT_TYPE)).toBe("complete");
    expect(isInputRequiredIn({ resultType: "input_required" }, RESULT_TYPE)).toBe(true);
  });

  it.each([
    { given: {}, facts: OTHER, type: "done", input: false },
    { given: { kind: "more" }, facts: OTHER, type: "more", input: true },
    { given: { resultType: "input_required" }, facts: OTHER, type: "done", input: false },
    { given: { kind: 5 }, facts: OTHER, type: "done", input: false },
    { given: { kind: "more" }, facts: { ...OTHER, inputRequired: null }, type: "more", input: false },
  ])(
    "resultTypeIn($given) is $type, isInputRequiredIn is $input, by the facts given",
    ({ given, facts, type, input }) => {
      expect(resultTypeIn(given, facts)).toBe(type);
      expect(isInputRequiredIn(given, facts)).toBe(input);
    },
  );
});

describe("RpcError.custom, the visible escape for an application's own code", () => {
  it("builds the same class as the constructor, with the code, message and data given", () => {
    const error = RpcError.custom(12345, "quota", { retryAfter: 3 });
    expect(error).toBeInstanceOf(RpcError);
    expect([error.name, error.code, error.message, error.data]).toEqual([
      "RpcError",
      12345,
      "quota",
      { retryAfter: 3 },
    ]);
  });
});
