import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { buildDefinitionTable, encodeTable } from "../../../generator/emit/validate-table.ts";
import type { JsonValue } from "../../../generator/load/schema-node.ts";
import { PACKAGE_ROOT } from "../../../generator/project/project.ts";
import { rareKeywords } from "../../../generator/runtime/validation/rare-keywords.ts";
import {
  standardSchemas,
  type StandardIssue,
  type StandardSchema,
} from "../../../generator/runtime/validation/standard-schema.ts";
import { decodeTable, validateDefinition, type Tables } from "../../../generator/runtime/validation/validator.ts";
import { readSnapshot, snapshotOf } from "../../../generator/tools/snapshot.ts";
import { toolSet, type ToolSet } from "../../../generator/tools/tool-set.ts";
import { mutate, rng, sample } from "../../support/schema-values.ts";

/** A server's tools as its generated module holds them: the table's text, decoded on first use. */
function source(set: ToolSet): { tables: Tables; schema: (definition: string) => StandardSchema<unknown> } {
  const text = encodeTable(buildDefinitionTable(set.schema, set.server));
  const tables = decodeTable(text, undefined, rareKeywords);
  return { tables, schema: standardSchemas({ tables: () => tables, texts: () => [text] }) };
}

const TARGET = { target: "draft-2020-12" } as const;

const demo = toolSet(
  "demo.json",
  snapshotOf("demo.json", "demo", "2026-07-28", [
    {
      name: "route",
      inputSchema: {
        type: "object",
        $defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
        properties: {
          stops: { type: "array", items: { $ref: "#/$defs/Point" }, minItems: 1 },
          "a/b~c": { type: "string", pattern: "^[a-z]+$" },
          ["__proto__"]: { type: "integer" },
          next: { $ref: "#" },
        },
        required: ["stops"],
        additionalProperties: false,
      },
    },
  ]),
);
const { schema: demoSchema } = source(demo);
const route = demoSchema("RouteArguments")["~standard"];

describe("a validator as a Standard Schema v1 object", () => {
  it("declares version 1 and the vendor, and is made once per definition", () => {
    expect(route.version).toBe(1);
    expect(route.vendor).toBe("mcp-bindgen");
    expect(demoSchema("RouteArguments")).toBe(demoSchema("RouteArguments"));
  });

  it("accepts a valid value as { value }, the same value", () => {
    const value = { stops: [{ x: 1 }], next: { stops: [{ x: 2 }] } };
    const result = route.validate(value);
    expect(result).toEqual({ value });
    expect(result.issues).toBeUndefined();
    expect((result as { value: unknown }).value).toBe(value);
  });

  it("refuses with { issues }: each a message and a path of keys, array indices as numbers, pointer escapes undone", () => {
    const result = route.validate({ stops: [{ x: 1 }, { x: "2" }], "a/b~c": "A", extra: 1 });
    expect(result.issues).toEqual<StandardIssue[]>([
      { message: 'expected a string matching ^[a-z]+$, got "A"', path: ["a/b~c"] },
      { message: 'expected number, got "2"', path: ["stops", 1, "x"] },
      { message: "expected nothing (no further keys allowed), got 1", path: ["extra"] },
    ]);
  });

  it("names no path for the value itself, and keeps a key that reads as a number a string in an object", () => {
    expect(route.validate(5).issues).toEqual([{ message: "expected RouteArguments, got 5" }]);
    const keyed = source(
      toolSet(
        "k.json",
        snapshotOf("k.json", "k", "2026-07-28", [
          { name: "k", inputSchema: { type: "object", additionalProperties: { type: "string" } } },
        ]),
      ),
    ).schema("KArguments")["~standard"];
    expect(keyed.validate({ "0": 1 }).issues).toEqual([{ message: "expected string, got 1", path: ["0"] }]);
  });
});

describe("its JSON Schema (jsonSchema.input/output)", () => {
  it("is draft 2020-12 for both, the root the definition itself, other definitions in $defs, recursion to the root as #", () => {
    const json = route.jsonSchema.input(TARGET);
    expect(json).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        stops: { type: "array", items: { $ref: "#/$defs/Route_Point" }, minItems: 1 },
        "a/b~c": { type: "string", pattern: "^[a-z]+$" },
        ["__proto__"]: { type: "integer" },
        next: { $ref: "#" },
      },
      required: ["stops"],
      additionalProperties: false,
      $defs: { Route_Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
    });
    expect(Object.keys(json["properties"] as object)).toContain("__proto__");
    expect(route.jsonSchema.output(TARGET)).toEqual(json);
  });

  it("is a fresh object on each call, so a consumer that edits one changes no other", () => {
    const first = route.jsonSchema.input(TARGET);
    first["type"] = "string";
    expect(route.jsonSchema.input(TARGET)["type"]).toBe("object");
  });

  it("refuses every other target with a TypeError naming it, as the spec asks", () => {
    for (const target of ["draft-07", "openapi-3.0", "draft-2019-09"]) {
      expect(() => route.jsonSchema.input({ target })).toThrow(TypeError);
      expect(() => route.jsonSchema.output({ target })).toThrow(`not "${target}"`);
    }
    expect(() => (route.jsonSchema.input as (o?: unknown) => unknown)()).toThrow(TypeError);
  });
});

describe("a published JSON Schema (a tool's own inputSchema or outputSchema)", () => {
  const text = encodeTable(buildDefinitionTable(demo.schema, "demo"));
  const tables = decodeTable(text, undefined, rareKeywords);
  const published = (schema: Record<string, unknown>) =>
    standardSchemas({ tables: () => tables, texts: () => [text], published: () => structuredClone(schema) })(
      "RouteArguments",
    )["~standard"].jsonSchema;
  const own = { type: "object", properties: { stops: { type: "array", description: "where to stop" } } };

  it("is given as published where it is draft 2020-12 (no $schema, or 2020-12's), descriptions kept", () => {
    expect(published(own).input(TARGET)).toEqual(own);
    const declared = { $schema: "https://json-schema.org/draft/2020-12/schema#", ...own };
    expect(published(declared).output(TARGET)).toEqual(declared);
  });

  it("is rebuilt from the table where it is another dialect (draft-07), so the target holds", () => {
    const draft07 = { $schema: "http://json-schema.org/draft-07/schema#", ...own };
    expect(published(draft07).input(TARGET)).toEqual(route.jsonSchema.input(TARGET));
  });

  it("still refuses other targets", () => {
    expect(() => published(own).input({ target: "draft-07" })).toThrow(TypeError);
  });
});

describe("on the tool schema corpus (test/fixtures/tools/corpus.json)", () => {
  const file = join(PACKAGE_ROOT, "test", "fixtures", "tools", "corpus.json");
  const set = toolSet(file, readSnapshot(file));
  const { tables, schema } = source(set);
  const definitions = set.tools.flatMap((t) => (t.structured === null ? [t.arguments] : [t.arguments, t.structured]));

  // Values built from each schema and mutated: `validate` agrees with the validator it wraps (same verdict, each issue's
  // path its pointer), and Ajv compiled from `jsonSchema.input` agrees too, so the JSON Schema is the one checked.
  it.each(definitions)("%s: validate and Ajv on its jsonSchema agree with the validator", (definition) => {
    const standard = schema(definition)["~standard"];
    const ajv = new Ajv2020({ strict: false, ownProperties: true });
    addFormats.default(ajv, { mode: "fast", formats: ["uri", "uri-template", "byte"] });
    const check = ajv.compile(standard.jsonSchema.input(TARGET));
    const node = set.schema.definitions.get(definition)!;
    let valid = 0;
    const runs = 2000;
    for (let seed = 0; seed < runs; seed++) {
      const rand = rng(seed * 7919 + definition.length);
      const built = sample(set.schema, node, rand);
      const value: JsonValue =
        seed % 3 === 0 ? built : seed % 3 === 1 ? mutate(built, rand) : mutate(mutate(built, rand), rand);
      const wrapped = validateDefinition(tables, definition, value);
      const result = standard.validate(value);
      if (wrapped.ok) {
        valid++;
        expect(result).toEqual({ value });
      } else {
        expect(result.issues?.map((i) => pointerOf(i.path))).toEqual(wrapped.errors.map((e) => e.pointer));
      }
      expect(check(value), JSON.stringify(value)).toBe(wrapped.ok);
    }
    expect(valid).toBeGreaterThan(0);
    expect(valid).toBeLessThan(runs);
  });
});

function pointerOf(path: StandardIssue["path"]): string {
  return (path ?? [])
    .map(
      (p) =>
        "/" +
        String(typeof p === "object" ? p.key : p)
          .replace(/~/g, "~0")
          .replace(/\//g, "~1"),
    )
    .join("");
}
