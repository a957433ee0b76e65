import { describe, expect, it } from "vitest";
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
} from "../../../generator/runtime/core/builders.ts";
import type { ResultTypeFacts } from "../../../generator/runtime/core/responses.ts";

/** The resultType facts a 2026-07-28 model hands the runtime, and made-up ones that show the runtime reads them. */
const RESULT_TYPE: ResultTypeFacts = { key: "resultType", complete: "complete", inputRequired: "input_required" };
const OTHER: ResultTypeFacts = { key: "kind", complete: "done", inputRequired: "more" };

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
