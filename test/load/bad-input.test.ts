import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BindgenError } from "../../generator/common/failures.ts";
import { loadModels } from "../../generator/model/load-models.ts";
import { generate } from "../../generator/output/generate-output.ts";
import { MAX_DEPTH } from "../../generator/load/normalise.ts";
import type { ProtocolModel } from "../../generator/model/protocol-model.ts";
import { fixture, plantMarkerTree, runCli, snapshotTree, tmpProject, type TmpProject } from "../support/tmp-project.ts";

/**
 * Broken and hostile schemas. Each must fail with exactly one BindgenError naming the file, the
 * JSON pointer and what was expected, and leave generated/ (and schema/) exactly as they were;
 * the few marked `accepted` are documented, correct output instead.
 */
const V = "2031-01-01";
type Doc = { $schema?: unknown; definitions: Record<string, unknown> } & Record<string, unknown>;

const legacyText = fixture("legacy-minimal.json").toString("utf8");
const legacy = (): Doc => JSON.parse(legacyText) as Doc;
const text = (doc: unknown) => JSON.stringify(doc, null, 2);
const edit = (change: (d: Doc) => void) => () => {
  const d = legacy();
  change(d);
  return text(d);
};
/** Adds a definition under a key that a JS object literal could not hold as an own property. */
const withRawDefinition = (name: string) => () =>
  legacyText.replace('"definitions": {', `"definitions": {\n    ${JSON.stringify(name)}: { "type": "object" },`);

/** Built as text: JSON.stringify itself overflows the stack on 5,000 levels. */
const nested = (depth: number) => () =>
  legacyText.replace(
    '"definitions": {',
    `"definitions": {\n    "Deep": ${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${"}}".repeat(depth)},`,
  );

const TEN_MB = () => {
  const d = legacy();
  const filler = "x".repeat(400);
  let size = 0;
  for (let i = 0; size < 10_500_000; i++) {
    d.definitions[`Filler${i}`] = {
      type: "object",
      description: filler,
      properties: { [`field${i}`]: { type: "string", description: filler } },
    };
    size += 2 * filler.length + 120;
  }
  return text(d);
};

interface Case {
  readonly name: string;
  /** The schema file's bytes; undefined: no file (and the source folder is empty). */
  readonly bytes: (() => string | Buffer) | undefined;
  readonly lockSha?: string;
  /** Which file the message must name, relative to the project; default: the schema file. */
  readonly file?: string;
  readonly pointer?: string | RegExp;
  readonly expected?: RegExp;
  /** Documented behaviour: loads, and its model satisfies this. */
  readonly accepted?: (methods: string[], definitions: ProtocolModel["definitions"]) => void;
}

const CASES: Case[] = [
  {
    name: "file missing",
    bytes: undefined,
    file: "empty-source/2031-01-01/schema.json",
    pointer: "",
    expected: /a readable schema file \(file not found\)/,
  },
  {
    name: "not JSON",
    bytes: () => "{ definitions: nope }",
    pointer: "",
    expected: /expected JSON text \(.*line 1, column 3/,
  },
  { name: "empty file", bytes: () => "", pointer: "", expected: /expected JSON text \(the file is empty\)/ },
  { name: "only whitespace", bytes: () => " \n\t\n", pointer: "", expected: /the file is empty/ },
  { name: "truncated JSON", bytes: () => legacyText.slice(0, 700), pointer: "", expected: /expected JSON text/ },
  {
    name: "wrong sha256",
    bytes: () => legacyText,
    lockSha: "0".repeat(64),
    pointer: "",
    expected: /expected sha256 0{64} \(pinned in the lock\) \(got [0-9a-f]{64}/,
  },
  { name: "top level is an array", bytes: () => "[]", pointer: "", expected: /a JSON object at the top level/ },
  {
    name: "no $schema",
    bytes: edit((d) => delete d.$schema),
    pointer: "/$schema",
    expected: /a draft-07 or 2020-12 JSON Schema URI \(got null\)/,
  },
  {
    name: "unknown dialect (draft-04)",
    bytes: edit((d) => (d.$schema = "http://json-schema.org/draft-04/schema#")),
    pointer: "/$schema",
    expected: /draft-07 or 2020-12 .*draft-04/,
  },
  {
    name: "$schema is not a string",
    bytes: edit((d) => (d.$schema = 7)),
    pointer: "/$schema",
    expected: /JSON Schema URI \(got 7\)/,
  },
  {
    name: "2020-12 declared but definitions kept draft-07 style",
    bytes: edit((d) => (d.$schema = "https://json-schema.org/draft/2020-12/schema")),
    pointer: "/$defs",
    expected: /an object of definitions \(the 2020-12 dialect keeps them in "\$defs"\)/,
  },
  {
    name: "definitions is an array",
    bytes: edit((d) => ((d as Record<string, unknown>)["definitions"] = [])),
    pointer: "/definitions",
    expected: /an object of definitions/,
  },
  {
    name: "unresolvable $ref",
    bytes: edit(
      (d) => ((d.definitions["TextContent"] as Doc)["properties"] = { text: { $ref: "#/definitions/Nope" } }),
    ),
    pointer: "/definitions/TextContent/properties/text/$ref",
    expected: /a reference to an existing definition \("#\/definitions\/Nope" does not resolve\)/,
  },
  {
    name: "remote $ref",
    bytes: edit(
      (d) =>
        (d.definitions["ServerRequest"] = {
          anyOf: [{ $ref: "https://example.com/schema.json#/definitions/PingRequest" }],
        }),
    ),
    pointer: "/definitions/ServerRequest/anyOf/0/$ref",
    expected: /a local reference "#\/definitions\/<Name>" \(got "https:\/\/example\.com/,
  },
  {
    name: "$ref to another file",
    bytes: edit((d) => (d.definitions["EmptyResult"] = { $ref: "common.json#/definitions/Result" })),
    pointer: "/definitions/EmptyResult/$ref",
    expected: /a local reference/,
  },
  {
    name: "$ref into the middle of a definition",
    bytes: edit((d) => (d.definitions["EmptyResult"] = { $ref: "#/definitions/Result/properties/_meta" })),
    pointer: "/definitions/EmptyResult/$ref",
    expected: /does not resolve/,
  },
  {
    name: "malformed percent-encoding in $ref",
    bytes: edit((d) => (d.definitions["EmptyResult"] = { $ref: "#/definitions/Result%E0%A4%A" })),
    pointer: "/definitions/EmptyResult/$ref",
    expected: /a reference with valid percent-encoding \(got "#\/definitions\/Result%E0%A4%A"\)/,
  },
  {
    name: "$ref cycle through aliases (A→B→A)",
    bytes: edit((d) =>
      Object.assign(d.definitions, { Alpha: { $ref: "#/definitions/Beta" }, Beta: { $ref: "#/definitions/Alpha" } }),
    ),
    pointer: "/definitions/Alpha",
    expected: /recursion only through properties, items or additionalProperties \(\$ref cycle Alpha -> Beta -> Alpha\)/,
  },
  {
    name: "$ref to itself",
    bytes: edit((d) => (d.definitions["Loop"] = { description: "I am me", $ref: "#/definitions/Loop" })),
    pointer: "/definitions/Loop",
    expected: /\$ref cycle Loop -> Loop/,
  },
  {
    name: "cycle through union members only",
    bytes: edit((d) =>
      Object.assign(d.definitions, {
        Either: { anyOf: [{ type: "string" }, { $ref: "#/definitions/Both" }] },
        Both: { allOf: [{ $ref: "#/definitions/Either" }] },
      }),
    ),
    pointer: "/definitions/Both",
    expected: /\$ref cycle Both -> Either -> Both/,
  },
  {
    name: "definition named __proto__",
    bytes: withRawDefinition("__proto__"),
    pointer: "/definitions/__proto__",
    expected: /a definition name that is a TypeScript identifier and not a reserved word/,
  },
  {
    name: "definition named constructor",
    bytes: withRawDefinition("constructor"),
    pointer: "/definitions/constructor",
    expected: /not a reserved word/,
  },
  {
    name: "definition named like a generated export (ErrorCode)",
    bytes: withRawDefinition("ErrorCode"),
    pointer: "/definitions/ErrorCode",
    expected: /definition names that differ from the names mcp-bindgen generates/,
  },
  {
    name: "definition named like a generated export (RequestTable)",
    bytes: withRawDefinition("RequestTable"),
    pointer: "/definitions/RequestTable",
    expected: /exported by both .*types\.ts and .*methods\.ts/,
  },
  {
    name: "definition named class",
    bytes: withRawDefinition("class"),
    pointer: "/definitions/class",
    expected: /not a reserved word/,
  },
  {
    name: "definition name with a hyphen",
    bytes: withRawDefinition("Tool-Call"),
    pointer: "/definitions/Tool-Call",
    expected: /a TypeScript identifier/,
  },
  {
    name: "definition name starting with a digit",
    bytes: withRawDefinition("2Fast"),
    pointer: "/definitions/2Fast",
    expected: /a TypeScript identifier/,
  },
  {
    name: "definition name with a slash",
    bytes: withRawDefinition("a/b"),
    pointer: "/definitions/a~1b",
    expected: /a TypeScript identifier/,
  },
  {
    name: "empty definition name",
    bytes: withRawDefinition(""),
    pointer: "/definitions/",
    expected: /a TypeScript identifier/,
  },
  {
    name: "request with no result pairing",
    bytes: edit((d) => delete d.definitions["CallToolResult"]),
    pointer: "/definitions/CallToolRequest",
    expected:
      /a result definition for "tools\/call" \(CallToolResult, CallToolResultResponse, or, if it answers with EmptyResult, "tools\/call" listed in .*facts\.json#\/emptyResultMethods\/methods\)/,
  },
  {
    name: "method in two unions with different params",
    bytes: edit((d) => {
      d.definitions["ServerPingRequest"] = {
        type: "object",
        properties: {
          method: { const: "ping", type: "string" },
          params: { type: "object", properties: { x: { type: "string" } } },
        },
        required: ["method"],
      };
      d.definitions["ServerRequest"] = { anyOf: [{ $ref: "#/definitions/ServerPingRequest" }] };
    }),
    pointer: "/definitions/ServerPingRequest",
    expected:
      /the same params and kind for "ping" in every union that lists it \(ClientRequest and ServerRequest disagree\)/,
  },
  {
    name: "method listed as request and as notification",
    bytes: edit(
      (d) =>
        (d.definitions["ServerNotification"] = {
          anyOf: [{ $ref: "#/definitions/ProgressNotification" }, { $ref: "#/definitions/PingRequest" }],
        }),
    ),
    pointer: "/definitions/PingRequest",
    expected: /the same params and kind for "ping"/,
  },
  {
    name: "union member without a method const",
    bytes: edit((d) =>
      (d.definitions["ClientRequest"] as { anyOf: unknown[] }).anyOf.push({
        type: "object",
        properties: { method: { type: "string" } },
      }),
    ),
    pointer: "/definitions/ClientRequest/anyOf/3",
    expected: /a member of ClientRequest with a "method" property that is a string const/,
  },
  {
    name: "union member whose method const is a number",
    bytes: edit(
      (d) =>
        ((d.definitions["PingRequest"] as { properties: Record<string, unknown> }).properties["method"] = {
          const: 42,
        }),
    ),
    pointer: "/definitions/PingRequest",
    expected: /a member of ClientRequest with a "method" property that is a string const/,
  },
  {
    name: "unsupported keyword",
    bytes: edit((d) => ((d.definitions["Result"] as Record<string, unknown>)["patternProperties"] = { "^x": {} })),
    pointer: "/definitions/Result/patternProperties",
    expected: /a JSON Schema keyword that MCP schemas use \("patternProperties" is not supported\)/,
  },
  {
    name: "$ref with sibling keywords",
    bytes: edit((d) => (d.definitions["EmptyResult"] = { $ref: "#/definitions/Result", type: "object" })),
    pointer: "/definitions/EmptyResult/type",
    expected: /only a description beside \$ref/,
  },
  {
    name: "misspelt type name",
    bytes: edit((d) => ((d.definitions["InitializeResult"] as Record<string, unknown>)["type"] = "obejct")),
    pointer: "/definitions/InitializeResult/type",
    expected: /a JSON type name or an array of them \(got "obejct"\)/,
  },
  {
    name: "required is not an array",
    bytes: edit(
      (d) => ((d.definitions["InitializeResult"] as Record<string, unknown>)["required"] = "protocolVersion"),
    ),
    pointer: "/definitions/InitializeResult/required",
    expected: /an array of property names/,
  },
  {
    name: "empty enum",
    bytes: edit((d) => (d.definitions["Level"] = { enum: [] })),
    pointer: "/definitions/Level/enum",
    expected: /a non-empty array/,
  },
  {
    name: "a schema that is a number",
    bytes: edit((d) => (d.definitions["Odd"] = { type: "object", properties: { n: 5 } })),
    pointer: "/definitions/Odd/properties/n",
    expected: /a schema object \(got number 5\)/,
  },
  {
    name: "5,000-deep nested schema",
    bytes: nested(5000),
    pointer: new RegExp(`^/definitions/Deep(/properties/a){${MAX_DEPTH + 1}}$`),
    expected: new RegExp(`schemas nested at most ${MAX_DEPTH} levels deep`),
  },
  {
    name: "5,000-deep const value",
    bytes: () =>
      legacyText.replace(
        '"definitions": {',
        `"definitions": {\n    "DeepConst": { "const": ${"[".repeat(5000)}${"]".repeat(5000)} },`,
      ),
    pointer: new RegExp(`^/definitions/DeepConst/const(/0){${MAX_DEPTH + 1}}$`),
    expected: new RegExp(`a value nested at most ${MAX_DEPTH} levels deep`),
  },
  {
    name: "10 MB of definitions",
    bytes: TEN_MB,
    pointer: "",
    expected: /a schema file of at most 8 MiB \(got \d{8} bytes\)/,
  },
  {
    name: "lock entry with a malformed sha256",
    bytes: () => legacyText,
    lockSha: "not-a-hash",
    file: "mcp-bindgen.lock.json",
    pointer: `/versions/${V}/sha256`,
    expected: /a 64-digit lowercase hex sha256/,
  },
  {
    name: "UTF-8 byte order mark",
    bytes: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(legacyText)]),
    accepted: (methods) =>
      expect(methods).toEqual([
        "initialize",
        "notifications/initialized",
        "notifications/progress",
        "ping",
        "tools/call",
      ]),
  },
  {
    name: "legitimate recursion through properties",
    bytes: edit(
      (d) =>
        (d.definitions["Tree"] = {
          type: "object",
          properties: {
            children: { type: "array", items: { $ref: "#/definitions/Tree" } },
            parent: { $ref: "#/definitions/Tree" },
          },
        }),
    ),
    accepted: (methods) => expect(methods).toHaveLength(5),
  },
  {
    name: "a property named __proto__ does not pollute Object.prototype",
    bytes: () =>
      legacyText.replace(
        '"protocolVersion": { "type": "string" } }',
        '"protocolVersion": { "type": "string" }, "__proto__": { "type": "object", "properties": { "polluted": { "const": "yes" } } } }',
      ),
    accepted: (methods) => {
      expect(methods).toContain("initialize");
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty("properties");
    },
  },

  {
    name: "a const object with a __proto__ key stays data",
    bytes: () =>
      legacyText.replace(
        '"definitions": {',
        '"definitions": {\n    "Hostile": { "const": { "__proto__": { "polluted": true }, "b": 1 } },',
      ),
    accepted: (_methods, definitions) => {
      const value = definitions.get("Hostile")?.schema.const as Record<string, unknown>;
      expect(Object.keys(value)).toEqual(["__proto__", "b"]);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    },
  },
];

function prepare(c: Case): { project: TmpProject; from: string | undefined } {
  const project = tmpProject("mcp-bindgen-bad-");
  if (c.bytes) {
    project.putSchema(V, c.bytes(), c.lockSha ? { sha256: c.lockSha } : {});
  } else {
    project.setLock({ [V]: { url: "http://127.0.0.1:1/unused", sha256: "1".repeat(64) } });
    project.choose(V);
  }
  plantMarkerTree(project.paths.outDir);
  return { project, from: c.bytes ? undefined : join(project.root, "empty-source") };
}

describe("broken and hostile schemas (in process)", () => {
  it("has at least 25 failure cases", () => {
    expect(CASES.filter((c) => !c.accepted).length).toBeGreaterThanOrEqual(25);
  });

  it.each(CASES)("$name", async (c) => {
    const { project, from } = prepare(c);
    try {
      const generatedBefore = snapshotTree(project.paths.outDir);
      const schemaBefore = snapshotTree(project.paths.cacheDir);
      if (c.accepted) {
        const models = await loadModels(project.paths, { releases: [V] });
        c.accepted(
          models[0]!.methods.map((m) => m.name),
          models[0]!.definitions,
        );
        return;
      }
      const error = await generate(project.paths, { releases: [V], from }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(BindgenError);
      const e = error as BindgenError;
      const file = join(project.root, c.file ?? `node_modules/.cache/mcp-bindgen/${V}/schema.json`);
      expect(e.file).toBe(file);
      if (typeof c.pointer === "string") expect(e.pointer).toBe(c.pointer);
      else expect(e.pointer).toMatch(c.pointer!);
      expect(e.message.startsWith(e.pointer === "" ? `${file}: expected ` : `${file}#${e.pointer}: expected `)).toBe(
        true,
      );
      expect(e.message).toMatch(c.expected!);
      expect(e.message).not.toContain("\n");
      expect(e.message.length).toBeLessThan(1500);
      expect(snapshotTree(project.paths.outDir)).toEqual(generatedBefore);
      expect(snapshotTree(project.paths.cacheDir)).toEqual(schemaBefore);
    } finally {
      project.cleanup();
    }
  });
});

describe("broken schemas through the real CLI", () => {
  const CLI_CASES = [
    "file missing",
    "not JSON",
    "wrong sha256",
    "unknown dialect (draft-04)",
    "unresolvable $ref",
    "request with no result pairing",
  ];
  const projects: TmpProject[] = [];
  afterAll(() => projects.forEach((p) => p.cleanup()));
  beforeAll(() => {
    expect(CLI_CASES.every((n) => CASES.some((c) => c.name === n))).toBe(true);
  });

  it.each(CLI_CASES)("%s: exit 1, one line naming file and pointer, generated/ untouched", (name) => {
    const c = CASES.find((x) => x.name === name)!;
    const { project, from } = prepare(c);
    projects.push(project);
    const before = snapshotTree(project.paths.outDir);
    const r = runCli(["generate", "--project", project.root, ...(from ? ["--from", from] : [])]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    const file = join(project.root, c.file ?? `node_modules/.cache/mcp-bindgen/${V}/schema.json`);
    expect(lines[0]).toContain(`mcp-bindgen: ${file}${c.pointer ? `#${String(c.pointer)}` : ""}: expected `);
    expect(lines[0]).toMatch(c.expected!);
    expect(lines[0]).not.toMatch(/\bat .*\.ts:\d+/);
    expect(snapshotTree(project.paths.outDir)).toEqual(before);
  });

  it("a bad schema among good ones still writes nothing", () => {
    const project = tmpProject("mcp-bindgen-bad-");
    projects.push(project);
    project.putSchema("2031-02-01", fixture("modern-minimal.json"));
    project.putSchema(V, "{");
    const before = plantMarkerTree(project.paths.outDir);
    writeFileSync(join(project.root, "note"), "");
    const r = runCli(["generate", "--project", project.root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`mcp-bindgen/${V}/schema.json: expected JSON text`);
    expect(snapshotTree(project.paths.outDir)).toEqual(before);
  });
});
