import { readFileSync } from "node:fs";
import { CodeBlockWriter } from "ts-morph";
import { describe, expect, it } from "vitest";
import { admits, emitAnswers } from "../../generator/emit/answers.ts";
import { answerRoots } from "../../generator/emit/mcp-release.ts";
import { emitClient } from "../../generator/emit/client.ts";
import { emitDispatch } from "../../generator/emit/dispatch.ts";
import { emitEnvelope } from "../../generator/emit/envelope.ts";
import { emitHttp } from "../../generator/emit/http.ts";
import { emitMeta } from "../../generator/emit/meta.ts";
import { emitServerTools } from "../../generator/emit/server-tools.ts";
import { emitServer } from "../../generator/emit/server.ts";
import { emitTypes } from "../../generator/emit/types.ts";
import { emitRequester } from "../../generator/emit/requester.ts";
import { emitRuntime } from "../../generator/emit/root-runtime.ts";
import { frozenType } from "../../generator/emit/literal-type.ts";
import { finishFile, NOCHECK_PRAGMA, withImportExtension } from "../../generator/emit/output-file.ts";
import { SchemaTypes } from "../../generator/emit/schema-type.ts";
import { buildWireTables, needsRareKeywords } from "../../generator/emit/validate-table.ts";
import type { SchemaNode } from "../../generator/load/schema-node.ts";
import { normalise } from "../../generator/load/normalise.ts";
import { buildModel } from "../../generator/model/build.ts";
import { loadFacts } from "../../generator/model/facts.ts";
import { reachableDefinitions } from "../../generator/model/reach.ts";
import { PACKAGE_FACTS } from "../../generator/project/project.ts";
import { snapshotOf } from "../../generator/tools/snapshot.ts";
import { toolSet } from "../../generator/tools/tool-set.ts";
import { TYPE_BITS, type WireEntry, type WireNode } from "../../generator/runtime/validation/table-format.ts";
import { realModel } from "../support/real-models.ts";

/** Emitters on small schema nodes: given a node, want the text or table entry; one row per rule. */
const node = (n: Omit<SchemaNode, "pointer">): SchemaNode => ({ pointer: "", ...n });
const prop = (name: string, schema: Omit<SchemaNode, "pointer">, required = false) => ({
  name,
  required,
  schema: node(schema),
});
const types = new SchemaTypes(new Set(["Tool", "Role"]));
const printed = (write: (w: CodeBlockWriter) => void) => {
  const w = new CodeBlockWriter();
  write(w);
  return w.toString().replace(/\s+/g, " ").trim();
};

describe("SchemaTypes.typeOf", () => {
  it.each([
    { rule: "a $ref is the definition's name", given: node({ ref: "Tool" }), want: "Tool" },
    { rule: "const is a literal type", given: node({ const: "text" }), want: '"text"' },
    { rule: "enum is a union of literals", given: node({ enum: ["a", 1, null] }), want: '"a" | 1 | null' },
    { rule: "no type is unknown", given: node({}), want: "unknown" },
    {
      rule: "integer is number, and named once beside number",
      given: node({ type: ["integer", "number"] }),
      want: "number",
    },
    { rule: "several types are a union", given: node({ type: ["string", "null"] }), want: "string | null" },
    { rule: "an object without properties is object", given: node({ type: ["object"] }), want: "object" },
    { rule: "an array without items is unknown[]", given: node({ type: ["array"] }), want: "unknown[]" },
    {
      rule: "a union element is parenthesised",
      given: node({ type: ["array"], items: node({ type: ["string", "number"] }) }),
      want: "(string | number)[]",
    },
    {
      rule: "anyOf alone is the union of its members",
      given: node({ anyOf: [node({ ref: "Tool" }), node({ ref: "Role" })] }),
      want: "Tool | Role",
    },
    {
      rule: "oneOf alone is the union of its members",
      given: node({ oneOf: [node({ const: 1 }), node({ const: 2 })] }),
      want: "1 | 2",
    },
    {
      rule: "allOf is an intersection",
      given: node({ allOf: [node({ ref: "Tool" }), node({ ref: "Role" })] }),
      want: "Tool & Role",
    },
    {
      rule: "an open string with known values lists them and stays open",
      given: node({ type: ["string"], known: ["complete", "input_required"] }),
      want: '"complete" | "input_required" | (string & {})',
    },
    {
      rule: "an open string with known values is parenthesised as an array element",
      given: node({ type: ["array"], items: node({ type: ["string"], known: ["a"] }) }),
      want: '("a" | (string & {}))[]',
    },
    {
      rule: "a union inside an intersection is parenthesised",
      given: node({ ref: "Tool", anyOf: [node({ ref: "Role" }), node({ type: ["null"] })] }),
      want: "Tool & (Role | null)",
    },
    {
      rule: "an object with properties is an object literal, optional members marked",
      given: node({
        type: ["object"],
        properties: [prop("name", { type: ["string"] }, true), prop("size", { type: ["integer"] })],
      }),
      want: "{ name: string; size?: number; }",
    },
    {
      rule: "a property name that is not an identifier is quoted",
      given: node({ type: ["object"], properties: [prop("a-b", { type: ["boolean"] }, true)] }),
      want: '{ "a-b": boolean; }',
    },
  ])("$rule", ({ given, want }) => {
    expect(printed(types.typeOf(given).write)).toBe(want);
  });
});

describe("SchemaTypes with options: answers.ts's readonly types, server.ts's qualified ones", () => {
  const answers = new SchemaTypes(new Set(["Tool", "Role"]), { readonly: true });
  const qualified = new SchemaTypes(new Set(["Tool", "Role"]), { qualifier: "T." });
  it.each([
    {
      rule: "an array is readonly",
      given: node({ type: ["array"], items: node({ ref: "Role" }) }),
      want: "readonly Role[]",
    },
    {
      rule: "a readonly array as an array's element is parenthesised",
      given: node({ type: ["array"], items: node({ type: ["array"], items: node({ type: ["string"] }) }) }),
      want: "readonly (readonly string[])[]",
    },
    {
      rule: "a readonly array in a union needs no parentheses",
      given: node({ type: ["array", "null"], items: node({ type: ["string"] }) }),
      want: "readonly string[] | null",
    },
    {
      rule: "members are readonly, index signatures too",
      given: node({
        type: ["object"],
        properties: [prop("a", { type: ["array"], items: node({ ref: "Tool" }) }, true)],
        additionalProperties: true,
      }),
      want: "{ readonly [key: string]: unknown; readonly a: readonly Tool[]; }",
    },
  ])("readonly: $rule", ({ given, want }) => {
    expect(printed(answers.typeOf(given).write)).toBe(want);
  });

  it("qualified: a reference is written after the qualifier, and nothing else is", () => {
    const given = node({
      type: ["object"],
      properties: [prop("tools", { type: ["array"], items: node({ ref: "Tool" }) })],
    });
    expect(printed(qualified.typeOf(given).write)).toBe("{ tools?: T.Tool[]; }");
  });
});

describe("SchemaTypes.members", () => {
  it.each([
    {
      rule: "a closed object has no index signature",
      given: node({ type: ["object"], properties: [prop("a", {})], additionalProperties: false }),
      want: [],
    },
    {
      rule: "absent additionalProperties adds none",
      given: node({ type: ["object"], properties: [prop("a", {})] }),
      want: [],
    },
    {
      rule: "open with properties: unknown values",
      given: node({ type: ["object"], properties: [prop("a", {})], additionalProperties: node({ type: ["string"] }) }),
      want: ["unknown"],
    },
    {
      rule: "open without properties: the schema's value type",
      given: node({ type: ["object"], additionalProperties: node({ type: ["string"] }) }),
      want: ["string"],
    },
    {
      rule: "additionalProperties: true is unknown",
      given: node({ type: ["object"], additionalProperties: true }),
      want: ["unknown"],
    },
  ])("$rule", ({ given, want }) => {
    const { indexSignatures } = types.members(given);
    expect(
      indexSignatures.map((s) =>
        typeof s.returnType === "string" ? s.returnType : printed(s.returnType as (w: CodeBlockWriter) => void),
      ),
    ).toEqual(want);
  });

  it("a required property has no question token, an optional one has", () => {
    const { properties } = types.members(node({ type: ["object"], properties: [prop("a", {}, true), prop("b", {})] }));
    expect(properties.map((p) => [p.name, p.hasQuestionToken])).toEqual([
      ["a", false],
      ["b", true],
    ]);
  });
});

describe("SchemaTypes.isInterface", () => {
  it.each([
    { rule: "an object with properties", given: node({ type: ["object"], properties: [prop("a", {})] }), want: true },
    {
      rule: "an open object without properties",
      given: node({ type: ["object"], additionalProperties: true }),
      want: true,
    },
    { rule: "a bare object", given: node({ type: ["object"] }), want: false },
    { rule: "empty properties", given: node({ type: ["object"], properties: [] }), want: false },
    { rule: "object or null", given: node({ type: ["object", "null"], properties: [prop("a", {})] }), want: false },
    {
      rule: "an object with a combinator",
      given: node({ type: ["object"], properties: [prop("a", {})], allOf: [node({ ref: "Tool" })] }),
      want: false,
    },
    {
      rule: "a const object",
      given: node({ type: ["object"], properties: [prop("a", {})], const: { a: 1 } }),
      want: false,
    },
    { rule: "a reference", given: node({ ref: "Tool" }), want: false },
  ])("$rule: $want", ({ given, want }) => {
    expect(types.isInterface(given)).toBe(want);
  });
});

describe("the validator table", () => {
  const base = JSON.parse(readFileSync(new URL("../fixtures/diff/base.json", import.meta.url), "utf8")) as {
    definitions: Record<string, unknown>;
  };
  const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
  const doc = structuredClone(base);
  Object.assign(doc.definitions, {
    JSONRPCResponse: { type: "object", properties: { result: { type: "object" } }, required: ["result"] },
    JSONRPCError: {
      type: "object",
      properties: { error: { type: "object", properties: { code: { type: "integer" } } } },
      required: ["error"],
    },
    Alias: ref("AliasOfAlias"),
    AliasOfAlias: ref("TextContent"),
    Closed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    Link: { type: "string", format: "uri", minLength: 1, maxLength: 9, pattern: "^x" },
    Counted: { type: "array", items: { type: "number", minimum: 0, maximum: 1 }, minItems: 1, maxItems: 2 },
    Shapes: {
      anyOf: [
        { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] },
        { type: "object", properties: { kind: { const: "b" } }, required: ["kind"] },
      ],
    },
    Twice: { type: "object", properties: { x: { type: "string", minLength: 3 }, y: { type: "string", minLength: 3 } } },
  });
  const model = buildModel("2031-01-01", normalise("synthetic.json", doc, "0".repeat(64)), loadFacts(PACKAGE_FACTS));
  const { table, named, definitionEntries } = buildWireTables(model);
  const names = [...model.schema.definitions.keys()];
  const nodes = [...table.nodes, ...named.nodes];
  const core = table.nodes.length;
  /** The entry validate(name), the guards and messages start from. */
  const index = (name: string) => definitionEntries[names.indexOf(name)]!;
  const entry = (name: string) => nodes[index(name)]!;
  const at = (i: number) => nodes[i] as WireNode;

  it("definition i is entry i of its part: first what messages reach, then what only validate() and the guards do", () => {
    const tableNames = table.names.split(",");
    const namedNames = named.names.split(",");
    const listed: [string, number][] = [
      ...tableNames.map((name, i): [string, number] => [name, i]),
      ...namedNames.map((name, i): [string, number] => [name, core + i]),
    ];
    expect(listed.map(([name]) => index(name))).toEqual(listed.map(([, i]) => i));
    expect(listed.map(([name]) => name).sort()).toEqual([...names].sort());
    expect(tableNames).toContain("CallToolResult");
    expect(namedNames).toContain("Closed");
  });

  it("messages reach no entry of the named part", () => {
    const refs = (w: WireEntry): number[] =>
      typeof w === "number"
        ? [w]
        : [
            ...(w.p ?? []).filter((v): v is number => typeof v === "number").map((v) => (v < 0 ? ~v : v)),
            ...[w.a, w.i].filter((v) => v !== undefined),
            ...(w.u ?? []),
            ...(w.o ?? []),
            ...(w.l ?? []),
          ];
    expect(Math.max(...table.nodes.flatMap(refs))).toBeLessThan(table.nodes.length);
  });

  const real = realModel("2026-07-28");
  const realTables = buildWireTables(real);
  const realNames = [...real.schema.definitions.keys()];
  const messageEntry = (name: string) => realTables.definitionEntries[realNames.indexOf(name)]!;

  it("a method's params that are a whole definition point at it, not at a copy", () => {
    const call = realTables.table.methods.find((m) => m[0] === "tools/call")!;
    expect(call[2]).toBe(messageEntry("CallToolRequestParams"));
  });

  it.each([
    { rule: "a union's member", definition: "TextContent" },
    { rule: "an object type a property holds", definition: "Implementation" },
    { rule: "an object type an array holds", definition: "Tool" },
    { rule: "a method's result", definition: "CallToolResult" },
    { rule: "a method's params", definition: "CallToolRequestParams" },
    { rule: "an enum", definition: "LoggingLevel" },
    { rule: "a primitive", definition: "ProgressToken" },
    { rule: "a union", definition: "ContentBlock" },
  ])("the message table names every definition messages reach: $rule", ({ definition }) => {
    const { table, named } = realTables;
    const entry = messageEntry(definition);
    expect(entry).toBeLessThan(table.nodes.length);
    expect(table.names.split(",")[entry]).toBe(definition);
    expect(named.names.split(",")).not.toContain(definition);
  });

  it.each([
    { rule: "an alias points at the end of its chain", got: () => nodes[index("Alias")], want: index("TextContent") },
    { rule: "type is a bit mask", got: () => (entry("Link") as WireNode).t, want: TYPE_BITS.string },
    {
      rule: "format is copied; lengths and pattern, which only tool schemas use, go with the rare keywords",
      got: () => ({ ...(entry("Link") as WireNode), t: undefined }),
      want: { t: undefined, f: "uri", k: { nl: 1, xl: 9, r: "^x" } },
    },
    {
      rule: "items bounds (minItems with the rare keywords)",
      got: () => [(entry("Counted") as WireNode).k?.ni, (entry("Counted") as WireNode).X],
      want: [1, 2],
    },
    {
      rule: "item bounds",
      got: () => at((entry("Counted") as WireNode).i!),
      want: { t: TYPE_BITS.number, n: 0, x: 1 },
    },
    {
      rule: "additionalProperties: false is an entry of no type",
      got: () => at((entry("Closed") as WireNode).a!),
      want: { t: 0 },
    },
    {
      rule: "a required property stores ~index",
      got: () => (entry("Shapes") as WireNode).u!.map((i) => (at(i).p![1] as number) < 0),
      want: [true, true],
    },
    {
      rule: "a distinct required const makes a discriminator",
      got: () => (entry("Shapes") as WireNode).d,
      want: "kind",
    },
    {
      rule: "equal anonymous nodes are stored once",
      got: () => new Set((entry("Twice") as WireNode).p!.filter((v) => typeof v === "number")).size,
      want: 1,
    },
  ])("$rule", ({ got, want }) => {
    expect(got()).toEqual(want);
  });

  it("methods: name, kind, params entry, required flag, result entries", () => {
    const call = table.methods.find((m) => m[0] === "tools/call")!;
    expect(call.slice(1, 2)).toEqual([0]);
    expect(call[4]).toBe(index("CallToolResult"));
    const note = table.methods.find((m) => m[0] === "notifications/initialized")!;
    expect(note[1]).toBe(1);
  });

  it("the response members come from the model's envelope", () => {
    expect(at(table.result)).toEqual({ t: TYPE_BITS.object });
    expect(at(table.error).p?.[0]).toBe("code");
  });
});

describe("needsRareKeywords: what a table needs rare-keywords.ts for", () => {
  it.each([
    { given: [3, { t: TYPE_BITS.string }, { c: "text" }, { e: ["a", 1, null] }], want: false },
    { given: [{ c: { kind: "x" } }], want: true },
    { given: [{ e: ["a", [1]] }], want: true },
    { given: [{ k: { q: 1 } }], want: true },
  ] satisfies { given: WireEntry[]; want: boolean }[])("$given → $want", ({ given, want }) => {
    expect(needsRareKeywords(given)).toBe(want);
  });
});

describe("builders per era (envelope.ts)", () => {
  const legacy = emitEnvelope(realModel("2024-11-05")).content;
  const session = emitEnvelope(realModel("2025-11-25")).content;
  const modern = emitEnvelope(realModel("2026-07-28")).content;
  it.each([
    {
      rule: "a session release builds with sessionRequest",
      text: legacy,
      has: "sessionRequest(method, params, options, MetaKey.progressToken)",
      want: true,
    },
    {
      rule: "a stateless release builds with statelessRequest",
      text: modern,
      has: "statelessRequest(method, params, options, VERSION, MetaKey)",
      want: true,
    },
    { rule: "only stateless releases take ResultOptions", text: legacy, has: "ResultOptions", want: false },
    { rule: "stateless results carry resultType and serverInfo", text: modern, has: "statelessResult(", want: true },
    {
      rule: "only stateless releases have the three error builders",
      text: session,
      has: "unsupportedProtocolVersionError",
      want: false,
    },
    {
      rule: "only stateless releases have httpHeaders",
      text: session,
      has: "export function httpHeaders",
      want: false,
    },
    { rule: "the error id is required up to 2025-06-18", text: legacy, has: "id: T.RequestId,", want: true },
    { rule: "the error id is optional from 2025-11-25", text: session, has: "id: T.RequestId | undefined", want: true },
    {
      rule: "no runtime code is emitted: the builders import it",
      text: modern,
      has: 'from "../runtime/core/builders.js"',
      want: true,
    },
    {
      rule: "an envelope's params member is read from a table with a member per method",
      text: legacy,
      has: "& RequestParamsFields[M]",
      want: true,
    },
    {
      rule: "whose members are the methods'",
      text: legacy,
      has: 'readonly "ping": ParamsField<ParamsOf<"ping">>;',
      want: true,
    },
    {
      rule: "notifications' too",
      text: session,
      has: 'readonly "notifications/initialized": ParamsField<NotificationParamsOf<"notifications/initialized">>;',
      want: true,
    },
    {
      rule: "a stateless release's request params as request takes them are a table too",
      text: modern,
      has: 'readonly "tools/call": ReadonlyInput<Omit<ParamsOf<"tools/call">, "_meta">>;',
      want: true,
    },
    { rule: "which session releases do not have", text: session, has: "RequestParamsInputs", want: false },
  ])("$rule", ({ text, has, want }) => {
    expect(text.includes(has)).toBe(want);
  });

  it("a stateless release with a request that takes no params fails generation, naming the method", () => {
    const model = realModel("2026-07-28");
    const bare = {
      ...model,
      methods: model.methods.map((m) => (m.name === "tools/list" ? { ...m, params: null } : m)),
    };
    expect(() => emitEnvelope(bare)).toThrow(
      expect.objectContaining({
        name: "BindgenError",
        file: model.file,
        detail: "tools/list has none",
      }),
    );
  });
});

describe("properties the model deprecates carry @deprecated", () => {
  const types = (v: string) => emitTypes(realModel(v)).content.replace(/\s+/g, "");
  it.each([
    { rule: "a deprecated capability (SEP-2577)", v: "2026-07-28", has: "@deprecated*/roots?:object;", want: true },
    {
      rule: "and the server's logging capability",
      v: "2026-07-28",
      has: "@deprecated*/logging?:JSONObject;",
      want: true,
    },
    { rule: "not before its release deprecates it", v: "2025-11-25", has: "@deprecated*/roots?:", want: false },
    {
      rule: "a property with only some values deprecated is no deprecated property",
      v: "2026-07-28",
      has: "@deprecated*/includeContext?:",
      want: false,
    },
  ])("$rule", ({ v, has, want }) => {
    expect(types(v).includes(has)).toBe(want);
  });
});

describe("reserved _meta keys are checked by the model's prefix rule", () => {
  const flat = (text: string) => text.replace(/\s+/g, "");
  const modern = realModel("2026-07-28");
  const madeUp = { ...modern, reservedMetaPrefix: { labels: ["acme"], position: "penultimate" as const, source: "s" } };
  it.each([
    {
      rule: "a release reserving no prefix checks nothing",
      text: emitMeta(realModel("2024-11-05")).content,
      has: 'exporttypeCheckedMeta<M>=CheckedMetaOf<M,MetaKey|FormerMetaKey,never,"none">;',
    },
    {
      rule: "2025-06-18 reserves by the label before the last",
      text: emitMeta(realModel("2025-06-18")).content,
      has: 'exporttypeCheckedMeta<M>=CheckedMetaOf<M,MetaKey|FormerMetaKey,"modelcontextprotocol"|"mcp","penultimate">;',
    },
    {
      rule: "2026-07-28 by the second label",
      text: emitMeta(modern).content,
      has: 'exporttypeCheckedMeta<M>=CheckedMetaOf<M,MetaKey|FormerMetaKey,"modelcontextprotocol"|"mcp","second">;',
    },
    {
      rule: "the labels and position are the model's",
      text: emitMeta(madeUp).content,
      has: 'CheckedMetaOf<M,MetaKey|FormerMetaKey,"acme","penultimate">',
    },
    {
      rule: "a release's request infers the caller's _meta and checks its reserved keys and their values",
      text: emitEnvelope(modern).content,
      has: "readonly_meta?:JsonObject&Meta&CheckedMeta<Meta>&MetaValuesOf<ParamsOf<M>>}",
    },
    {
      rule: "and its extraMeta",
      text: emitEnvelope(modern).content,
      has: "options:RequestOptions&CheckedExtraMeta<Extra>",
    },
    {
      rule: "a session release's request too, the table's params kept",
      text: emitEnvelope(realModel("2025-11-25")).content,
      has: "(ParamsOf<M>|ReadonlyInput<ParamsOf<M>>)&CheckedMetaField<Meta,CheckedMeta<Meta>>",
    },
    {
      rule: "and so does its notification",
      text: emitEnvelope(modern).content,
      has: "[params?:NotificationParamsOf<M>&CheckedMetaField<Meta,CheckedMeta<Meta>>]",
    },
    {
      rule: "the requester's request",
      text: emitRequester(modern).content,
      has: "request<MextendsClientRequestMethod,Meta={}>(method:M,params:RequestParamsInput<M,Meta>",
    },
    {
      rule: "handler results are checked by the same rule",
      text: emitMeta(madeUp).content,
      has: 'exporttypeCheckedResults<Table,Methodsextendsstring>=CheckedResultsOf<Table,Methods,MetaKey|FormerMetaKey,"acme","penultimate">;',
    },
    {
      rule: "a release reserving no prefix still checks its tables' method names",
      text: emitMeta(realModel("2024-11-05")).content,
      has: 'exporttypeCheckedResults<Table,Methodsextendsstring>=CheckedResultsOf<Table,Methods,MetaKey|FormerMetaKey,never,"none">;',
    },
    {
      rule: "a server dispatcher infers its table as written to check it",
      text: emitDispatch(modern).content,
      has: "createServerDispatcher<C=undefined,Handlers=unknown>(handlers:ServerDispatchHandlers<C>&CheckedResults<Handlers,keyofClientRequests|keyofClientNotifications>,",
    },
    {
      rule: "and a client dispatcher",
      text: emitDispatch(realModel("2025-06-18")).content,
      has: "createClientDispatcher<C=undefined,Handlers=unknown>(handlers:ClientDispatchHandlers<C>&CheckedResults<Handlers,keyofServerRequests|keyofServerNotifications>,",
    },
    {
      rule: "and the stateless era",
      text: emitServer(modern).content,
      has: "statelessEra<Handlers=unknown>(handlers:StatelessServerHandlers&CheckedResults<Handlers,keyofClientRequests|keyofClientNotifications>,",
    },
    {
      rule: "and a session era",
      text: emitServer(realModel("2025-11-25")).content,
      has: "sessionEra<S=undefined,Handlers=unknown>(handlers:SessionServerHandlers<S>&CheckedResults<Handlers,keyofClientRequests|keyofClientNotifications>,",
    },
    {
      rule: "a session release's resultResponse infers the result's _meta",
      text: emitEnvelope(realModel("2025-11-25")).content,
      has: "result:ResultInput<ResultOf<M>>&{readonly_meta?:Meta&CheckedMeta<Meta>}",
    },
    {
      rule: "a key an earlier release reserved is no misspelling: 2026-07-28 accepts the key 2025-11-25's tasks wrote",
      text: emitMeta(modern).content,
      has: 'exporttypeFormerMetaKey="io.modelcontextprotocol/related-task";',
    },
    {
      rule: "a release after which no fact's key ended accepts none beside its own",
      text: emitMeta(realModel("2025-11-25")).content,
      has: "exporttypeFormerMetaKey=never;",
    },
    {
      rule: "the high-level server checks a handler's answer by the same keys",
      text: emitServer(modern).content,
      has: "metaKnown:MetaKey|FormerMetaKey,",
    },
    {
      rule: "the version-agnostic builders check by every generated release's rule, and accept the keys an earlier release reserved",
      text: emitRuntime([modern, realModel("2025-06-18"), realModel("2024-11-05")]).content,
      has: 'typeCheckedMeta<M>=CheckedMetaOf<M,MetaKey|"io.modelcontextprotocol/related-task","modelcontextprotocol"|"mcp","second"|"penultimate">;',
    },
    {
      rule: "where a generated release lists a former key, it is a root MetaKey already",
      text: emitRuntime([modern, realModel("2025-11-25")]).content,
      has: 'typeCheckedMeta<M>=CheckedMetaOf<M,MetaKey,"modelcontextprotocol"|"mcp","second">;',
    },
    {
      rule: "their request, its params and extraMeta",
      text: emitRuntime([modern]).content,
      has: "params:RequestParamsInput<M>&CheckedMetaField<Meta,CheckedMeta<Meta>>,options:RequestOptions&{readonlyprotocolVersion?:V;readonlyextraMeta?:Extra&CheckedMeta<Extra>}",
    },
    {
      rule: "and their resultResponse",
      text: emitRuntime([modern]).content,
      has: "result:R&{readonly_meta?:Meta&CheckedMeta<Meta>}",
    },
    {
      rule: "a root of releases reserving no prefix checks nothing",
      text: emitRuntime([realModel("2024-11-05")]).content,
      has: 'typeCheckedMeta<M>=CheckedMetaOf<M,MetaKey,never,"none">;',
    },
  ])("$rule", ({ text, has }) => {
    expect(flat(text)).toContain(has);
  });
});

describe("the runtime's resultType and input_required facts come from the model", () => {
  const real = realModel("2026-07-28");
  // Made-up facts: output that still said resultType/input_required/inputRequests would have re-derived them.
  const changed = {
    ...real,
    dispatch: { ...real.dispatch, resultTypeDefault: { property: "kind", value: "done", definition: null } },
    inputRequired: {
      ...real.inputRequired!,
      resultType: "more",
      requests: "asks",
      responses: "answers",
      state: "cursor",
    },
  };
  const flat = (text: string) => text.replace(/\s+/g, "");
  const facts = '{"key":"kind","complete":"done","inputRequired":"more"}';
  it.each([
    {
      rule: "the client requester gets the input_required facts",
      text: emitRequester(changed).content,
      has: `inputRequired:{"resultType":${facts},"requests":"asks","responses":"answers","state":"cursor"}`,
    },
    {
      rule: "a session release's requester gets none",
      text: emitRequester(realModel("2025-06-18")).content,
      has: "inputRequired:null",
    },
    {
      rule: "the release's resultResponse gets the key and default",
      text: emitEnvelope(changed).content,
      has: 'MetaKey.serverInfo,{"key":"kind","complete":"done"})',
    },
    {
      rule: "the root gets the newest stateless release's facts (models come newest first)",
      text: emitRuntime([
        changed,
        {
          ...changed,
          version: "2026-01-01",
          dispatch: { ...changed.dispatch, resultTypeDefault: { property: "older", value: "x", definition: null } },
        },
        realModel("2025-06-18"),
      ]).content,
      has: `constRESULT_TYPE:ResultTypeFacts=${facts};`,
    },
    {
      rule: "a root of session releases gets none",
      text: emitRuntime([realModel("2025-06-18")]).content,
      has: "constRESULT_TYPE:null=null;",
    },
    {
      rule: "a result handed to resultResponse takes the release's open enum of resultType values",
      text: emitEnvelope(real).content,
      has: "exporttypeResultInput<R,RT=T.ResultType>",
    },
    {
      rule: "and so does its resultType option",
      text: emitEnvelope(real).content,
      has: "exportinterfaceResultOptions<RT=T.ResultType>{",
    },
    {
      rule: "resultResponse types the result it builds with the resultType it carries, the default unless named",
      text: emitEnvelope(real).content,
      has: 'RTextendsT.ResultType="complete",Meta={}>(id:T.RequestId,result:ResultInput<ResultOf<M>,RT>&{readonly_meta?:Meta&CheckedMeta<Meta>},options:ResultOptions<RT>={}):ResultEnvelope<ResultOf<M>&{resultType:RT}>',
    },
    {
      rule: "without an open enum in the model, a plain string",
      text: emitEnvelope(changed).content,
      has: "exporttypeResultInput<R,RT=string>",
    },
  ])("$rule", ({ text, has }) => {
    expect(flat(text)).toContain(has);
  });
  it("a root of session releases has no resultType readers: there is no key to read", () => {
    const root = emitRuntime([realModel("2024-11-05"), realModel("2025-06-18")]).content;
    expect(root).not.toMatch(/export function (resultType|isInputRequired)\b/);
    expect(emitRuntime([realModel("2025-06-18"), changed]).content).toMatch(
      /export function resultType\b[\s\S]*export function isInputRequired\b/,
    );
  });
});

describe("the thin release modules: declarations from the model, bodies over the runtime", () => {
  const modern = realModel("2026-07-28");
  // A made-up fact in each row: output that still said the real one would have re-derived it.
  const renamedHeader = { ...modern, http: { ...modern.http!, methodHeader: "X-Made-Up" } };
  const flat = (text: string) => text.replace(/\s+/g, "");
  const tools = (release: string) =>
    toolSet("w.json", snapshotOf("w.json", "w", release, [{ name: "get-forecast", inputSchema: { type: "object" } }]));
  const surface = (release: string) =>
    toolSet(
      "w.json",
      snapshotOf("w.json", "w", release, [{ name: "get-forecast", inputSchema: { type: "object" } }], "/tools", {
        prompts: [
          { name: "greet", arguments: [{ name: "name", required: true }, { name: "tone" }] },
          { name: "plain" },
        ],
        resourceTemplates: [
          { name: "user", uriTemplate: "demo://users/{id}{?fields}" },
          { name: "tree", uriTemplate: "repo://{owner}/contents{/path*}" },
        ],
      }),
    );
  // A made-up release whose -32002 is receive-only, the spec sending a made-up code instead.
  const replacesNotFound = {
    ...modern,
    errorCodes: [
      ...modern.errorCodes,
      {
        name: "ResourceNotFound",
        code: -32002,
        send: false,
        definition: null,
        source: null,
        replacedBy: { code: -32099, source: "" },
      },
    ],
  };
  // A made-up release whose model sends -32002 for a resource not found.
  const sendsNotFound = {
    ...modern,
    errorCodes: [
      ...modern.errorCodes,
      { name: "ResourceNotFound", code: -32002, send: true, definition: null, source: null, replacedBy: null },
    ],
  };
  it.each([
    {
      rule: "servers/<name>.ts: with its release generated, typed over its types and HTTP facts, and a server side",
      text: emitServerTools(tools("2026-07-28"), [modern]).content,
      has: [
        'import type * as Release from "../2026-07-28/types.js";',
        "const SPEC: tools.ToolsSpec = { server: SERVER, tables, http: HTTP, tools: {",
        "export function createToolServer<C = undefined>(",
      ],
    },
    {
      rule: "servers/<name>.ts decodes its table with the tool-only keywords, which a release's validators leave out",
      text: emitServerTools(tools("2026-07-28"), [modern]).content,
      has: [
        'import { rareKeywords } from "../runtime/validation/rare-keywords.js";',
        "decodeTable(TABLE, undefined, rareKeywords)",
      ],
    },
    {
      rule: "servers/<name>.ts: without its release, types, validators and callTool alone",
      text: emitServerTools(tools("2026-07-28"), [realModel("2025-06-18")]).content,
      has: ["http: null", '"get-forecast": { arguments: GetForecastArguments; result: { structuredContent?:'],
      hasNot: ["createToolServer", "Release."],
    },
    {
      rule: "servers/<name>.ts writes a tool's description through the shared doc text: no early */, no stray block tag",
      text: emitServerTools(
        toolSet(
          "w.json",
          snapshotOf("w.json", "w", "2026-07-28", [
            { name: "old", description: "Ends */ early.\n@deprecated use new", inputSchema: { type: "object" } },
          ]),
        ),
        [modern],
      ).content,
      has: [
        "/** * Ends *\\/ early. * \\@deprecated use new */ export type OldArguments",
        "/** * Ends *\\/ early. * \\@deprecated use new */ old: {",
      ],
      hasNot: ["* @deprecated"],
    },
    {
      rule: "servers/<name>.ts of a tools-only snapshot has no prompt or template server: its output is what it was",
      text: emitServerTools(tools("2026-07-28"), [modern]).content,
      has: ["export function createToolServer<C = undefined>("],
      hasNot: ["prompt-template-server", "PromptHandlers", "TemplateHandlers", "ServerAnswerOf", "ListServerOptions"],
    },
    {
      rule: "servers/<name>.ts of a 2025-11-25 tools-only snapshot: no cache members for tools/list, the module as it was",
      text: emitServerTools(tools("2025-11-25"), [realModel("2025-11-25")]).content,
      has: [
        'const SPEC: tools.ToolsSpec = { server: SERVER, tables, http: null, tools: {"get-forecast":{"arguments":"GetForecastArguments","structured":null,"headers":[]}} };',
        "`checkResults` checks structured results too (development). */ export function createToolServer<C = undefined>(handlers: ToolHandlers<C>, options: ToolServerOptions = {})",
      ],
      hasNot: ["cache", "ttlMs", "listTtlMs"],
    },
    {
      rule: "servers/<name>.ts of a 2026-07-28 snapshot hands tools/list the release's cache members, the options named in createToolServer's doc",
      text: emitServerTools(tools("2026-07-28"), [modern]).content,
      has: [
        '"headers":[]}}, cache: {"ttl":"ttlMs","scope":"cacheScope"} };',
        "`tools/list` carries `ttlMs` (`listTtlMs`, default 5 minutes) and `cacheScope` (`cacheScope`, default public). */ export function createToolServer<C = undefined>(handlers: ToolHandlers<C>, options: ToolServerOptions = {})",
      ],
    },
    {
      rule: "servers/<name>.ts takes the cache members from the model: a release whose results have none gets none",
      text: emitServerTools(tools("2026-07-28"), [{ ...modern, cacheMembers: null }]).content,
      has: ['"headers":[]}} };'],
      hasNot: ["cache", "ttlMs"],
    },
    {
      rule: "servers/<name>.ts serves the snapshot's prompts: a handler per prompt typed by Prompts, the required arguments as data",
      text: emitServerTools(surface("2026-07-28"), [modern]).content,
      has: [
        'import type { ServerAnswerOf, ServerContextOf } from "../2026-07-28/dispatch.js";',
        'import * as surface from "../runtime/server/prompt-template-server.js";',
        'export type { ListServerOptions } from "../runtime/server/prompt-template-server.js";',
        'prompts: {"greet":{"required":["name"]},"plain":{"required":[]}}',
        'export type PromptHandlers<C = undefined> = { readonly [N in PromptName]: surface.PromptHandler<Prompts[N], PromptReply, ServerContextOf<"prompts/get", C>> };',
        'export function createPromptServer<C = undefined>(handlers: PromptHandlers<C>, options: surface.ListServerOptions = {}): Pick<ServerDispatchHandlers<C>, "prompts/get" | "prompts/list">',
      ],
    },
    {
      rule: "servers/<name>.ts serves the templates it can read URIs back by, their variables strings (query ones optional), the rest named as left out",
      text: emitServerTools(surface("2026-07-28"), [modern]).content,
      has: [
        "export interface TemplateVariables {",
        "user: { id: string; fields?: string };",
        'const TEMPLATE_LIST: string = "[{\\"name\\":\\"user\\",\\"uriTemplate\\":\\"demo://users/{id}{?fields}\\"}]";',
        'Not here: "tree", whose level 4 modifiers',
        'templates: {"user":"demo://users/{id}{?fields}"}, notFound: -32602, cache: {"ttl":"ttlMs","scope":"cacheScope"}',
        'export type ResourceReply = surface.CacheDefaulted<ServerAnswerOf<"resources/read">, "ttlMs" | "cacheScope">;',
        'export function createTemplateServer<C = undefined>(handlers: TemplateHandlers<C>, options: surface.ListServerOptions = {}): Pick<ServerDispatchHandlers<C>, "resources/read" | "resources/templates/list">',
      ],
    },
    {
      rule: "servers/<name>.ts answers a URI no template covers with the release's resource-not-found code where the model sends one",
      text: emitServerTools(surface("2026-07-28"), [sendsNotFound]).content,
      has: ["notFound: -32002,"],
    },
    {
      rule: "servers/<name>.ts answers it with the code the model says replaces a receive-only one",
      text: emitServerTools(surface("2026-07-28"), [replacesNotFound]).content,
      has: ["notFound: -32099,"],
    },
    {
      rule: "and with the code the spec sends instead where the model's is receive-only (2025-11-25: -32002 → -32602), no cache members",
      text: emitServerTools(surface("2025-11-25"), [realModel("2025-11-25")]).content,
      has: ["notFound: -32602, cache: null", 'export type ResourceReply = ServerAnswerOf<"resources/read">;'],
    },
    {
      rule: "servers/<name>.ts without its release has the prompts' and templates' client side alone",
      text: emitServerTools(surface("2026-07-28"), [realModel("2025-06-18")]).content,
      has: ["export function getPrompt<", "export function readResource<"],
      hasNot: ["createPromptServer", "createTemplateServer", "prompt-template-server"],
    },
    {
      rule: "http.ts binds the release's header facts and passes them to the runtime",
      text: emitHttp(renamedHeader).content,
      has: ['"methodHeader":"X-Made-Up"', "`X-Made-Up`", "returnheaders.httpHeaders(HTTP,message,options);"],
    },
    {
      rule: "client.ts hands connect a stateless release's signals and its header functions",
      text: emitClient({ ...renamedHeader, modernSignalCodes: [-32999] }).content,
      has: [
        'era: { kind: "stateless", discover: "server/discover"',
        "signals: [-32999]",
        "headers: (message, params) =>",
        "params: (tool) => listedToolParams(REQUEST_HEADERS, tool)",
        '"methodHeader":"X-Made-Up"',
      ],
      hasNot: ["errorStatus", "acceptedStatus", 'from "./http.js"'],
    },
    {
      rule: "client.ts binds connectClient to the model's progress key and resultType facts",
      text: emitClient({
        ...modern,
        metaKeys: modern.metaKeys.map((k) => (k.name === "progressToken" ? { ...k, key: "made.up/progress" } : k)),
        dispatch: { ...modern.dispatch, resultTypeDefault: { ...modern.dispatch.resultTypeDefault!, value: "done" } },
      }).content,
      has: [
        '"tokenKey":"made.up/progress"',
        '"complete":"done"',
        '"callTool":"tools/call"',
        "return connectClientWith(CLIENT_API, transport, options);",
      ],
    },
    {
      rule: "servers/<name>.ts hands the one-call client its tool names, typed by Tools",
      text: emitServerTools(tools("2026-07-28"), [modern]).content,
      has: ["export const TOOL_TYPES: ToolTypes<Tools> = { names: TOOL_NAMES };"],
    },
    {
      rule: "client.ts hands connect a session release's initialize, and no header functions",
      text: emitClient(realModel("2025-06-18")).content,
      has: ['initialized: "notifications/initialized"', "http: undefined", "export function clientRelease("],
    },
    {
      rule: "server.ts binds a stateless release's input_required facts into statelessEra and inputResponse",
      text: emitServer({
        ...modern,
        inputRequired: { ...modern.inputRequired!, resultType: "more", responses: "answers" },
      }).content,
      has: [
        'inputRequired: {"key":"resultType","value":"more"',
        '"state":"requestState","responses":"answers"}',
        "const answers = params.answers;",
        "statusOf: httpStatusOf",
      ],
    },
    {
      rule: "server.ts gives a session release sessionEra, opening with initialize and requesting through its requester",
      text: emitServer(realModel("2025-06-18")).content,
      has: [
        'initialize: "initialize", createRequester: createServerRequester',
        "export function sessionEra<S = undefined, Handlers = unknown>(",
      ],
    },
    {
      rule: "requester.ts overloads request where the model says a task may answer, and binds the release's cancel",
      text: emitRequester(realModel("2025-11-25")).content,
      has: [
        'request<M extends "tools/call", Meta = {}>(method: M, params: RequestParamsInput<M, Meta> & { readonly "task": object }',
        'Promise<Exclude<ClientRequests[M]["result"], CreateTaskResult>>;',
        '{ cancel: {"method":"notifications/cancelled"',
      ],
    },
    {
      rule: "dispatch.ts types handlers and answers by the release's resultType default",
      text: emitDispatch({
        ...modern,
        dispatch: { ...modern.dispatch, resultTypeDefault: { property: "kind", value: "done", definition: null } },
      }).content,
      has: [
        'readonly "tools/call"?: (params: ParamsOf<"tools/call">, ctx: ServerContextOf<"tools/call", C>) => Answer<ServerAnswerOf<"tools/call">>;',
        'export type ServerAnswerOf<M extends keyof ClientRequests> = ReadonlyAnswer<ResultOf<M>, "kind", "done">;',
        "export interface ServerRequestContext<M extends string, P, C> extends RequestContext<M, P, ServerNotifications, C>, CapabilityCheck<T.ClientCapabilities> {}",
        'resultType: {"key":"kind","complete":"done"} }, handlers, options);',
        "const spec = { ...RELEASE, requests: SERVER_REQUEST_METHODS,",
      ],
    },
    {
      rule: "dispatch.ts gives a batch release batch dispatchers and its batch rules",
      text: emitDispatch(realModel("2025-03-26")).content,
      has: ['batches: {"notBatchable":["initialize"]}', "options: DispatcherOptions<C> = {}): BatchDispatcher<C> {"],
    },
    {
      rule: "http.ts names the model's header-mismatch code in checkHttpHeaders' doc",
      text: emitHttp({
        ...modern,
        errorCodes: modern.errorCodes.map((e) => (e.name === "HeaderMismatch" ? { ...e, code: -32999 } : e)),
      }).content,
      has: ["carries the HTTP status and the -32999 response. Never throws."],
    },
  ])("$rule", ({ text, has, hasNot = [] }) => {
    for (const h of has) expect(flat(text)).toContain(flat(h));
    for (const h of hasNot) expect(text).not.toContain(h);
  });

  it("http.ts of a release whose model lacks the header-mismatch code fails generation, naming the file and the code", () => {
    const lacking = { ...modern, errorCodes: modern.errorCodes.filter((e) => e.name !== "HeaderMismatch") };
    expect(() => emitHttp(lacking)).toThrow(
      expect.objectContaining({
        name: "BindgenError",
        file: modern.file,
        pointer: modern.schema.definitionsPointer,
        expected: "the error code HeaderMismatch (schema/facts.json)",
      }),
    );
  });
});

describe("output helpers", () => {
  it.each([
    {
      rule: "an object's primitives keep their literal types",
      given: { a: "x", b: 1 },
      options: {},
      want: 'Readonly<{ a: "x"; b: 1; }>',
    },
    {
      rule: "readonlyKeys marks members as `as const` does",
      given: { a: 1 },
      options: { readonlyKeys: true },
      want: "Readonly<{ readonly a: 1; }>",
    },
    { rule: "arrays widen", given: { a: ["x", "y"] }, options: {}, want: "Readonly<{ a: string[]; }>" },
    {
      rule: "an unfrozen nested object widens",
      given: { a: { b: "x" } },
      options: {},
      want: "Readonly<{ a: { b: string; }; }>",
    },
    {
      rule: "depth freezes nested objects too",
      given: { a: { b: "x" } },
      options: { depth: 2 },
      want: 'Readonly<{ a: Readonly<{ b: "x"; }>; }>',
    },
    {
      rule: "keys that are not identifiers are quoted",
      given: { "a/b": {} },
      options: { depth: 2 },
      want: 'Readonly<{ "a/b": Readonly<{  }>; }>',
    },
  ])("frozenType: $rule", ({ given, options, want }) => {
    expect(frozenType(given, options)).toBe(want);
  });

  it.each([
    { given: 'import { a } from "./a.js";', ext: ".ts" as const, want: 'import { a } from "./a.ts";' },
    {
      given: 'export * from "../runtime/core/json.js";',
      ext: ".ts" as const,
      want: 'export * from "../runtime/core/json.ts";',
    },
    { given: 'import ts from "typescript";', ext: ".ts" as const, want: 'import ts from "typescript";' },
    { given: 'import { a } from "./a.js";', ext: ".js" as const, want: 'import { a } from "./a.js";' },
  ])("withImportExtension($given, $ext)", ({ given, ext, want }) => {
    expect(withImportExtension(given, ext)).toBe(want);
  });

  it("finishFile adds the header naming the command, then the consumer pragma unless typeCheckOutput, and keeps the verbatim mark", () => {
    const header = "// Generated by mcp-bindgen from the MCP schema. Do not edit: run `make mcp`.";
    const pragma = `// @ts-nocheck\n${NOCHECK_PRAGMA.split("\n")[1]}`;
    expect(
      finishFile({ path: "runtime/x.ts", content: "x;\n", verbatim: true }, { regenerateCommand: "make mcp" }),
    ).toEqual({
      path: "runtime/x.ts",
      content: `${header}\n${pragma}\nx;\n`,
      verbatim: true,
    });
    expect(finishFile({ path: "2026-07-28/x.ts", content: "x;\n" }, { regenerateCommand: "make mcp" })).toEqual({
      path: "2026-07-28/x.ts",
      content: `${header}\n${pragma}\nx;\n`,
    });
    expect(
      finishFile(
        { path: "2026-07-28/x.ts", content: "x;\n" },
        { regenerateCommand: "make mcp", typeCheckOutput: true },
      ),
    ).toEqual({
      path: "2026-07-28/x.ts",
      content: `${header}\nx;\n`,
    });
  });
});

describe("the high-level server's release", () => {
  it("a release without what createMcpServer reads has no MCP_RELEASE, and the rest of its server module", () => {
    const modern = realModel("2026-07-28");
    const definitions = new Map(modern.definitions);
    definitions.delete("LoggingLevel");
    expect(emitServer(modern).content).toContain("export const MCP_RELEASE");
    const content = emitServer({ ...modern, definitions }).content;
    expect(content).not.toContain("MCP_RELEASE");
    expect(content).toContain("export function statelessEra");
  });
});

describe("the high-level server's answers and listings", () => {
  const modern = realModel("2026-07-28");
  const legacy = realModel("2025-11-25");

  it("answers.ts declares the three answers and what they reach, readonly, and no other definition", () => {
    const { path, content } = emitAnswers(modern);
    expect(path).toBe("2026-07-28/answers.ts");
    const declared = [...content.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
    const want = reachableDefinitions(modern.definitions, answerRoots(modern)).map((d) => d.name);
    expect(declared).toEqual(want);
    expect(want).toEqual(
      expect.arrayContaining(["CallToolResult", "GetPromptResult", "ReadResourceResult", "TextContent"]),
    );
    expect(want).not.toContain("ListToolsResult");
    expect(content).toMatch(/readonly content: readonly ContentBlock\[\];/);
    expect(content).not.toMatch(/^\s+[a-zA-Z_]\w*\??: /m);
  });

  it("answerRoots are each method's results, from the model", () => {
    expect(answerRoots(legacy)).toEqual([
      "CallToolResult",
      "CreateTaskResult",
      "GetPromptResult",
      "ReadResourceResult",
    ]);
    expect(answerRoots(modern)).toEqual([
      "CallToolResult",
      "InputRequiredResult",
      "GetPromptResult",
      "InputRequiredResult",
      "ReadResourceResult",
      "InputRequiredResult",
    ]);
  });

  it("answers.ts's results are as a handler writes them: resultType left to the dispatcher, a read's cache members to the server", () => {
    const declarationOf = (content: string, name: string) =>
      content.slice(
        content.indexOf(`export interface ${name} {`),
        content.indexOf("\n}\n", content.indexOf(`export interface ${name} {`)),
      );
    const stateless = emitAnswers(modern).content;
    expect(declarationOf(stateless, "CallToolResult")).toContain("readonly resultType?: ResultType;");
    expect(declarationOf(stateless, "InputRequiredResult")).toContain('readonly resultType: "input_required";');
    const read = declarationOf(stateless, "ReadResourceResult");
    expect(read).toContain("readonly resultType?: ResultType;");
    expect(read).not.toMatch(/ttlMs|cacheScope/);
    // types.ts keeps the schema's result whole.
    expect(declarationOf(emitTypes(modern).content, "ReadResourceResult")).toContain("ttlMs: number;");
    expect(declarationOf(emitAnswers(legacy).content, "CallToolResult")).not.toContain("resultType");
  });

  it("MCP_RELEASE's types answer with answers.ts", () => {
    const stateless = emitServer(modern).content.replace(/\s+/g, " ");
    expect(stateless).toContain('import type * as A from "./answers.js";');
    expect(stateless).toContain("tool: A.CallToolResult | A.InputRequiredResult,");
    expect(stateless).toContain("resource: A.ReadResourceResult | A.InputRequiredResult,");
    expect(emitServer(legacy).content.replace(/\s+/g, " ")).toContain("tool: A.CallToolResult | A.CreateTaskResult,");
  });

  it("a declaration's listing is the definition's other members, readonly, written out", () => {
    const sessions = emitServer(legacy).content;
    const listing = sessions.slice(sessions.indexOf("toolListing:"), sessions.indexOf("promptListing:"));
    const members = [...listing.matchAll(/readonly (\w+)\?:/g)].map((m) => m[1]);
    expect(members).toEqual(["_meta", "annotations", "description", "execution", "icons", "title"]);
    expect(sessions).toContain("readonly icons?: T.Icon[];");
    // A description's link to a definition names it in the `T` namespace server.ts imports the types as.
    expect(emitServer(modern).content).toContain("{@link T.Tool}");
  });
});

describe("admits: whether a result's resultType may be left to the dispatcher", () => {
  const def = (name: string, schema: Omit<SchemaNode, "pointer">) => ({
    name,
    schema: node(schema),
    deprecated: false,
  });
  const model = {
    ...realModel("2026-07-28"),
    definitions: new Map(
      [
        def("Open", { type: ["string"], known: ["complete", "input_required"] }),
        def("Loop", { ref: "Back" }),
        def("Back", { anyOf: [node({ ref: "Loop" }), node({ const: "x" })] }),
      ].map((d) => [d.name, d]),
    ),
  };
  it.each([
    { rule: "a const is its value alone", given: node({ const: "input_required" }), want: false },
    { rule: "an enum lists it", given: node({ enum: ["complete", "input_required"] }), want: true },
    { rule: "an open string through a reference", given: node({ ref: "Open" }), want: true },
    {
      rule: "a union admits what a member does",
      given: node({ anyOf: [node({ const: "a" }), node({ const: "complete" })] }),
      want: true,
    },
    {
      rule: "a reference back to one on the way ends, admitting nothing new",
      given: node({ ref: "Loop" }),
      want: false,
    },
    { rule: "a reference to no definition admits nothing", given: node({ ref: "Gone" }), want: false },
    { rule: "a number does not", given: node({ type: ["number"] }), want: false },
  ])("$rule", ({ given, want }) => {
    expect(admits(model, given, "complete")).toBe(want);
  });
});

describe("reachableDefinitions", () => {
  const def = (name: string, schema: Omit<SchemaNode, "pointer">) => ({
    name,
    schema: node(schema),
    deprecated: false,
  });
  const definitions = new Map(
    [
      def("A", {
        type: ["object"],
        properties: [prop("b", { ref: "B" }), prop("list", { type: ["array"], items: node({ ref: "C" }) })],
      }),
      def("B", { anyOf: [node({ ref: "D" }), node({ type: ["null"] })] }),
      def("C", { type: ["object"], additionalProperties: node({ ref: "E" }) }),
      def("D", { type: ["string"] }),
      def("E", { ref: "A" }),
      def("F", { ref: "A" }),
    ].map((d) => [d.name, d]),
  );
  it.each([
    {
      rule: "through properties, items, unions and open members, in the definitions' order",
      given: ["A"],
      want: ["A", "B", "C", "D", "E"],
    },
    { rule: "a root reached twice or a name no definition has adds nothing", given: ["D", "D", "Z"], want: ["D"] },
    { rule: "nothing reaches what refers to the roots", given: ["B"], want: ["B", "D"] },
  ])("$rule", ({ given, want }) => {
    expect(reachableDefinitions(definitions, given).map((d) => d.name)).toEqual(want);
  });
});

describe("the one-call client's facts", () => {
  it("a release without a method connectClient makes has no connectClient, and the rest of its client module", () => {
    const modern = realModel("2026-07-28");
    const without = { ...modern, methods: modern.methods.filter((m) => m.name !== "completion/complete") };
    expect(emitClient(modern).content).toContain("export function connectClient");
    const content = emitClient(without).content;
    expect(content).not.toContain("connectClient");
    expect(content).toContain("export function clientRelease");
  });
});
