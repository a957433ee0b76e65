import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { paramsFor, resultFor } from "../fixtures/envelope/params.ts";
import { readExamples } from "../support/example-file.ts";
import { REAL_SCHEMA_DIR } from "../support/tmp-project.ts";
import { formatDiagnostics, typecheck } from "../support/typecheck.ts";
import { importGenerated } from "../support/test-tree.ts";

const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;

interface Issue {
  pointer: string;
  expected: string;
  got: string;
}
type Checked = { ok: true } | { ok: false; code?: number; errors: readonly Issue[] };

/** The generated surface these tests drive, typed loosely so one loop covers every version. */
interface Validators {
  validate(name: string, value: unknown): Checked;
  validateMessage(msg: unknown): Checked & { kind?: string };
  validateResult(method: string, result: unknown): Checked;
  isCallToolRequest(value: unknown): boolean;
  isJSONValue(value: unknown): boolean;
}
interface Envelope {
  METHODS: Record<string, { kind: string; results: readonly string[] }>;
  request(method: string, params: unknown, options: Record<string, unknown>): Record<string, unknown>;
  notification(method: string, params?: unknown): Record<string, unknown>;
  resultResponse(id: number, result: unknown): Record<string, unknown>;
  errorResponse(id: number, code: string, message: string, data?: unknown): Record<string, unknown>;
}

const mods = new Map<string, Validators>();
const envelopes = new Map<string, Envelope>();
for (const v of VERSIONS) {
  mods.set(v, (await importGenerated(`${v}/validate.ts`)) as Validators);
  envelopes.set(v, (await importGenerated(`${v}/index.ts`)) as Envelope);
}

function pointers(result: Checked): string[] {
  return result.ok ? [] : result.errors.map((e) => e.pointer);
}

describe("official examples", () => {
  const examples = readExamples(join(REAL_SCHEMA_DIR, "2026-07-28", "examples"));

  it("there are 129, and every one validates against the definition its folder names", () => {
    expect(examples).toHaveLength(129);
    const v = mods.get("2026-07-28")!;
    const failures = examples.filter((e) => !v.validate(e.definition, e.value).ok).map((e) => e.id);
    expect(failures).toEqual([]);
  });

  it("including the two that the closed types reject: the validators keep the schema's open objects", () => {
    const v = mods.get("2026-07-28")!;
    const byId = new Map(examples.map((e) => [e.id, e.value]));
    expect(v.validate("ListRootsRequest", byId.get("ListRootsRequest/list-roots-request.json")).ok).toBe(true);
    const read = byId.get("ReadResourceResultResponse/read-resource-result-response.json") as { result: unknown };
    expect(v.validate("ReadResourceResultResponse", read).ok).toBe(true);
    // It fits only as an InputRequiredResult: the primary ReadResourceResult misses ttlMs and cacheScope.
    expect(pointers(v.validate("ReadResourceResult", read.result))).toEqual(["/cacheScope", "/ttlMs"]);
  });
});

/** A request whose params satisfy this version: modern requests need protocol version and capabilities in `_meta`. */
function call(
  version: string,
  params: Record<string, unknown> = { name: "echo", arguments: { text: "hi" } },
): Record<string, unknown> {
  const meta =
    version >= "2026-07-28"
      ? {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        }
      : {};
  return { jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...meta, ...params } };
}
function request(version: string, method: string, params: Record<string, unknown>): Record<string, unknown> {
  return { ...call(version, params), method };
}
const note = (method: string, params: Record<string, unknown>) => ({ jsonrpc: "2.0", method, params });
const text = { type: "text", text: "hi" };

interface Case {
  readonly name: string;
  readonly run: (v: Validators, version: string) => Checked;
  /** JSON-RPC code for message-level cases. */
  readonly code?: number;
  readonly pointer: string;
}

const CASES: readonly Case[] = [
  { name: "a batch array", run: (v) => v.validateMessage([]), code: -32600, pointer: "" },
  { name: "a string", run: (v) => v.validateMessage("hi"), code: -32600, pointer: "" },
  {
    name: "jsonrpc 1.0",
    run: (v, ver) => v.validateMessage({ ...call(ver), jsonrpc: "1.0" }),
    code: -32600,
    pointer: "/jsonrpc",
  },
  { name: "no jsonrpc", run: (v) => v.validateMessage({ id: 1, method: "ping" }), code: -32600, pointer: "/jsonrpc" },
  { name: "id: null", run: (v, ver) => v.validateMessage({ ...call(ver), id: null }), code: -32600, pointer: "/id" },
  {
    name: "a fractional id",
    run: (v, ver) => v.validateMessage({ ...call(ver), id: 1.5 }),
    code: -32600,
    pointer: "/id",
  },
  { name: "an object id", run: (v, ver) => v.validateMessage({ ...call(ver), id: {} }), code: -32600, pointer: "/id" },
  {
    name: "a numeric method",
    run: (v, ver) => v.validateMessage({ ...call(ver), method: 5 }),
    code: -32600,
    pointer: "/method",
  },
  {
    name: "an unknown method",
    run: (v, ver) => v.validateMessage({ ...call(ver), method: "tools/run" }),
    code: -32601,
    pointer: "/method",
  },
  {
    name: "an unknown notification",
    run: (v) => v.validateMessage(note("notifications/nope", {})),
    code: -32601,
    pointer: "/method",
  },
  {
    name: "result and error together",
    run: (v) => v.validateMessage({ jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } }),
    code: -32600,
    pointer: "",
  },
  {
    name: "neither result nor error",
    run: (v) => v.validateMessage({ jsonrpc: "2.0", id: 1 }),
    code: -32600,
    pointer: "",
  },
  {
    name: "a result without id",
    run: (v) => v.validateMessage({ jsonrpc: "2.0", result: {} }),
    code: -32600,
    pointer: "/id",
  },
  {
    name: "a method beside a result",
    run: (v, ver) => v.validateMessage({ ...call(ver), result: {} }),
    code: -32600,
    pointer: "/result",
  },
  {
    name: "a request method without id",
    run: (v, ver) => v.validateMessage({ ...call(ver), id: undefined }),
    code: -32600,
    pointer: "/id",
  },
  {
    name: "a notification method with an id",
    run: (v) => v.validateMessage({ ...note("notifications/progress", { progressToken: 1, progress: 1 }), id: 3 }),
    code: -32600,
    pointer: "/id",
  },
  {
    name: "tools/call without params",
    run: (v, ver) => v.validateMessage({ ...call(ver), params: undefined }),
    code: -32602,
    pointer: "/params",
  },
  {
    name: "tools/call with array params",
    run: (v, ver) => v.validateMessage({ ...call(ver), params: [] }),
    code: -32602,
    pointer: "/params",
  },
  {
    name: "a notification with array params",
    run: (v) => v.validateMessage(note("notifications/progress", [] as never)),
    code: -32602,
    pointer: "/params",
  },
  {
    name: "tools/call with null params",
    run: (v, ver) => v.validateMessage({ ...call(ver), params: null }),
    code: -32600,
    pointer: "/params",
  },
  {
    name: "a tool name that is a number",
    run: (v, ver) => v.validateMessage(call(ver, { name: 5 })),
    code: -32602,
    pointer: "/params/name",
  },
  {
    name: "a missing tool name",
    run: (v, ver) => v.validateMessage(call(ver, { arguments: {} })),
    code: -32602,
    pointer: "/params/name",
  },
  {
    name: "tool arguments as an array",
    run: (v, ver) => v.validateMessage(call(ver, { name: "x", arguments: [1] })),
    code: -32602,
    pointer: "/params/arguments",
  },
  {
    name: "a missing progress token",
    run: (v) => v.validateMessage(note("notifications/progress", { progress: 1 })),
    code: -32602,
    pointer: "/params/progressToken",
  },
  {
    name: "progress as a string",
    run: (v) => v.validateMessage(note("notifications/progress", { progressToken: "p", progress: "half" })),
    code: -32602,
    pointer: "/params/progress",
  },
  {
    name: "a fractional progress token",
    run: (v) => v.validateMessage(note("notifications/progress", { progressToken: 1.5, progress: 1 })),
    code: -32602,
    pointer: "/params/progressToken",
  },
  {
    name: "a null cancelled requestId",
    run: (v) => v.validateMessage(note("notifications/cancelled", { requestId: null })),
    code: -32602,
    pointer: "/params/requestId",
  },
  {
    name: "a log level outside the enum",
    run: (v) => v.validateMessage(note("notifications/message", { level: "loud", data: 1 })),
    code: -32602,
    pointer: "/params/level",
  },
  {
    name: "a resource uri that is a number",
    run: (v, ver) => v.validateMessage(request(ver, "resources/read", { uri: 42 })),
    code: -32602,
    pointer: "/params/uri",
  },
  {
    name: "a prompt argument that is not a string",
    run: (v, ver) => v.validateMessage(request(ver, "prompts/get", { name: "p", arguments: { x: 1 } })),
    code: -32602,
    pointer: "/params/arguments/x",
  },
  {
    name: "an unknown completion ref type",
    run: (v, ver) =>
      v.validateMessage(
        request(ver, "completion/complete", {
          ref: { type: "ref/tool", name: "x" },
          argument: { name: "a", value: "b" },
        }),
      ),
    code: -32602,
    pointer: "/params/ref/type",
  },
  {
    name: "a fractional error code",
    run: (v) => v.validateMessage({ jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } }),
    code: -32600,
    pointer: "/error/code",
  },
  {
    name: "an error without message",
    run: (v) => v.validateMessage({ jsonrpc: "2.0", id: 1, error: { code: -32601 } }),
    code: -32600,
    pointer: "/error/message",
  },
  {
    name: "an error that is a string",
    run: (v) => v.validateMessage({ jsonrpc: "2.0", id: 1, error: "boom" }),
    code: -32600,
    pointer: "/error",
  },
  {
    name: "a result that is an array",
    run: (v) => v.validateMessage({ jsonrpc: "2.0", id: 1, result: [] }),
    code: -32600,
    pointer: "/result",
  },
  {
    name: "a content block without its text",
    run: (v) => v.validate("CallToolResult", { resultType: "complete", content: [text, { type: "text" }] }),
    pointer: "/content/1/text",
  },
  {
    name: "an image block without mimeType",
    run: (v) => v.validate("CallToolResult", { resultType: "complete", content: [{ type: "image", data: "QUJD" }] }),
    pointer: "/content/0/mimeType",
  },
  {
    name: "a content block of unknown type",
    run: (v) => v.validate("CallToolResult", { resultType: "complete", content: [{ type: "video" }] }),
    pointer: "/content/0/type",
  },
  {
    name: "isError as a string",
    run: (v) => v.validate("CallToolResult", { resultType: "complete", content: [], isError: "yes" }),
    pointer: "/isError",
  },
  {
    name: "image data that is not base64",
    run: (v) => v.validate("ImageContent", { type: "image", data: "!!!", mimeType: "image/png" }),
    pointer: "/data",
  },
  {
    name: "a resource uri without scheme",
    run: (v) => v.validate("TextResourceContents", { uri: "no scheme here", text: "x" }),
    pointer: "/uri",
  },
  {
    name: "a tool input schema that is not an object schema",
    run: (v) => v.validate("Tool", { name: "t", inputSchema: { type: "array" } }),
    pointer: "/inputSchema/type",
  },
  {
    name: "a tool without name",
    run: (v) =>
      v.validate("ListToolsResult", {
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
        tools: [{ inputSchema: { type: "object" } }],
      }),
    pointer: "/tools/0/name",
  },
  {
    name: "a priority above the maximum",
    run: (v) => v.validate("ModelPreferences", { costPriority: 2 }),
    pointer: "/costPriority",
  },
  {
    name: "a float where the schema wants an integer",
    run: (v) =>
      v.validate("CreateMessageRequest", {
        jsonrpc: "2.0",
        id: 1,
        method: "sampling/createMessage",
        params: { messages: [], maxTokens: 1.5 },
      }),
    pointer: "/params/maxTokens",
  },
  { name: "a result for an unknown method", run: (v) => v.validateResult("tools/run", {}), pointer: "" },
  {
    name: "a tools/list result whose tools is not an array",
    run: (v) => v.validateResult("tools/list", { tools: {} }),
    pointer: "/tools",
  },
];

describe.each(VERSIONS)("hand-written invalid values are rejected where they go wrong (%s)", (version) => {
  const v = mods.get(version)!;

  it("the table is large enough and its valid baselines pass", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
    expect(v.validateMessage(call(version))).toMatchObject({ ok: true, kind: "request" });
    expect(v.validateMessage(note("notifications/progress", { progressToken: 1, progress: 1 }))).toMatchObject({
      ok: true,
      kind: "notification",
    });
    expect(v.validateMessage({ jsonrpc: "2.0", id: "a", error: { code: -32601, message: "x" } })).toMatchObject({
      ok: true,
      kind: "error",
    });
    expect(v.validate("CallToolResult", { resultType: "complete", content: [text] }).ok).toBe(true);
  });

  it.each(CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const result = c.run(v, version);
    expect(result.ok).toBe(false);
    if (c.code !== undefined) expect(result).toMatchObject({ code: c.code });
    expect(pointers(result)).toContain(c.pointer);
    for (const issue of result.ok ? [] : result.errors) expect(issue.expected).not.toBe("");
  });
});

describe("integer and number: the validators agree with schema.ts (facts.typeCorrections) and name the field", () => {
  const completeIn = (v: string) => (v === "2026-07-28" ? { resultType: "complete" } : {});
  it.each(["2025-06-18", "2025-11-25", "2026-07-28"])(
    "%s: a form answer of 95.5 for a number field is a valid ElicitResult",
    (v) => {
      const validators = mods.get(v)!;
      expect(
        validators.validate("ElicitResult", {
          action: "accept",
          content: { score: 95.5, age: 30, name: "x", ok: true },
          ...completeIn(v),
        }),
      ).toEqual({ ok: true });
      expect(
        validators.validateResult("elicitation/create", {
          action: "accept",
          content: { score: 95.5 },
          ...completeIn(v),
        }),
      ).toEqual({ ok: true });
      // The corrected node keeps the rest of the schema: an object is still no form value.
      expect(
        pointers(validators.validate("ElicitResult", { action: "accept", content: { score: {} }, ...completeIn(v) })),
      ).toEqual(["/content/score"]);
    },
  );
  it("2026-07-28: JSONValue takes null and fractions, as schema.ts declares", () => {
    const v = mods.get("2026-07-28")!;
    expect([v.isJSONValue(null), v.isJSONValue(1.5), v.isJSONValue({ a: [null, 0.25] })]).toEqual([true, true, true]);
  });
  it.each(VERSIONS)("%s: where both say integer, a fraction is refused at the field's pointer", (v) => {
    expect(mods.get(v)!.validate("Resource", { uri: "file:///a", name: "a", size: 1.5 })).toEqual({
      ok: false,
      errors: [{ pointer: "/size", expected: "integer", got: "1.5" }],
    });
  });
});

describe("a union's error names the field that failed in its closest member", () => {
  const v = () => mods.get("2026-07-28")!;
  it.each([
    {
      rule: "deep inside one of several object members",
      name: "InputResponses",
      value: { k: { action: "accept", content: { a: {} } } },
      want: "/k/content/a",
    },
    {
      rule: "inside an array of the member that matched most",
      name: "InputResponse",
      value: { roots: [{ uri: 5 }] },
      want: "/roots/0/uri",
    },
    {
      rule: "one field of the one enum schema it nearly is",
      name: "PrimitiveSchemaDefinition",
      value: { type: "string", enum: ["a"], default: 5 },
      want: "/default",
    },
  ])("$rule", ({ name, value, want }) => {
    expect(pointers(v().validate(name, value))).toEqual([want]);
  });
  it("a value no member admits by its JSON type still names the union", () => {
    expect(v().validate("InputResponse", "text")).toEqual({
      ok: false,
      errors: [{ pointer: "", expected: "InputResponse", got: '"text"' }],
    });
  });
});

describe("what an issue says was expected: the definition, wherever the table knows it", () => {
  const v = () => mods.get("2026-07-28")!;
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  it.each([
    {
      rule: "an object type a property holds",
      got: () =>
        v().validateMessage(
          call("2026-07-28", { name: "x", _meta: { ...meta, "io.modelcontextprotocol/clientInfo": 5 } }),
        ),
      want: { pointer: "/params/_meta/io.modelcontextprotocol~1clientInfo", expected: "Implementation", got: "5" },
    },
    {
      rule: "an enum",
      got: () =>
        v().validateMessage({ jsonrpc: "2.0", method: "notifications/message", params: { level: "loud", data: 1 } }),
      want: { pointer: "/params/level", expected: "LoggingLevel", got: '"loud"' },
    },
    {
      rule: "a primitive definition",
      got: () =>
        v().validateMessage({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: true, progress: 1 },
        }),
      want: { pointer: "/params/progressToken", expected: "ProgressToken", got: "true" },
    },
    {
      rule: "params that are a definition",
      got: () => v().validateMessage({ jsonrpc: "2.0", id: 1, method: "tools/call" }),
      want: { pointer: "/params", expected: "CallToolRequestParams", got: "missing" },
    },
    {
      rule: "a union definition by its name",
      got: () => v().validate("CallToolResult", { content: [5], resultType: "complete" }),
      want: { pointer: "/content/0", expected: "ContentBlock", got: "5" },
    },
    {
      rule: "an inline union, which has no name, by its members' names",
      got: () => v().validate("EmbeddedResource", { type: "resource", resource: 5 }),
      want: { pointer: "/resource", expected: "TextResourceContents | BlobResourceContents", got: "5" },
    },
    {
      rule: "a method's result",
      got: () => v().validateResult("tools/call", 5),
      want: { pointer: "", expected: "CallToolResult", got: "5" },
    },
    ...["ContentBlock", "LoggingLevel", "CallToolRequestParams", "Implementation", "EmptyResult"].map((name) => ({
      rule: `validate("${name}") by the name it was asked for`,
      got: () => v().validate(name, 5),
      want: { pointer: "", expected: name, got: "5" },
    })),
  ])("$rule", ({ got, want }) => {
    expect(got()).toMatchObject({ ok: false, errors: [want] });
  });
});

describe("limits", () => {
  const v = mods.get("2026-07-28")!;

  it("input nested 100,000 deep in a JSONValue position is a depth error, not a stack overflow", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = v.validate("JSONValue", deep);
    expect(result).toMatchObject({ ok: false, errors: [{ expected: "nesting at most 256 levels deep" }] });
    expect(v.isJSONValue(deep)).toBe(false);
    // Client capabilities hold JSONObjects of JSONValues: reachable from any modern request.
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { experimental: { x: { y: deep } } },
    };
    const msg = call("2026-07-28", { name: "x", _meta: meta });
    expect(v.validateMessage(msg)).toMatchObject({
      ok: false,
      code: -32602,
      errors: [{ pointer: "/params", expected: "nesting at most 256 levels deep" }],
    });
  });

  it("errors are capped and come in a stable order", () => {
    const bad = { resultType: "complete", content: Array.from({ length: 100 }, () => ({ type: "text" })) };
    const first = v.validate("CallToolResult", bad);
    const again = v.validate("CallToolResult", bad);
    expect(pointers(first)).toHaveLength(20);
    expect(pointers(first).slice(0, 2)).toEqual(["/content/0/text", "/content/1/text"]);
    expect(again).toEqual(first);
  });

  it("a __proto__ key neither supplies a required property nor escapes the check", () => {
    const polluted = JSON.parse('{"__proto__": {"name": "x"}, "arguments": {}}') as unknown;
    expect(pointers(v.validate("CallToolRequestParams", polluted))).toContain("/name");
    const inherited = Object.create({ name: "x" }) as Record<string, unknown>;
    expect(v.validate("Implementation", Object.assign(inherited, { version: "1" })).ok).toBe(false);
  });

  it("an unknown definition name is reported, not thrown", () => {
    expect(v.validate("NoSuchThing", {})).toMatchObject({
      ok: false,
      errors: [{ expected: "a definition name of 2026-07-28" }],
    });
  });
});

describe.each(VERSIONS)("every message the builders produce validates (%s)", (version) => {
  const v = mods.get(version)!;
  const m = envelopes.get(version)!;
  const sent = Object.entries(m.METHODS).filter(([, info]) => info.kind !== "input");

  it.each(sent)("%s", (method, info) => {
    const params = paramsFor(method, version);
    const msg =
      info.kind === "request"
        ? m.request(method, params, { id: 7, clientCapabilities: {}, protocolVersion: version })
        : m.notification(method, params);
    expect(v.validateMessage(msg)).toEqual({ ok: true, kind: info.kind });
    if (info.kind !== "request") return;
    const response = m.resultResponse(7, resultFor(method, version));
    expect(v.validateMessage(response)).toEqual({ ok: true, kind: "result" });
    expect(v.validateResult(method, response["result"])).toEqual({ ok: true });
  });

  it("error responses", () => {
    expect(v.validateMessage(m.errorResponse(7, "MethodNotFound", "no such method", { method: "x" }))).toEqual({
      ok: true,
      kind: "error",
    });
  });
});

describe("guards", () => {
  it("narrow to the schema type and compile under strict flags", () => {
    const fixture = join(import.meta.dirname, "..", "fixtures", "validate", "guard-usage.ts");
    expect(formatDiagnostics(typecheck([fixture]))).toBe("");
  });

  it("answer like validate", () => {
    const v = mods.get("2026-07-28")!;
    const good = call("2026-07-28");
    expect(v.isCallToolRequest(good)).toBe(true);
    expect(v.isCallToolRequest({ ...good, params: { name: 1 } })).toBe(false);
  });
});
