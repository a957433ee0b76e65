import { join } from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildDefinitionTable, encodeTable } from "../../../generator/emit/validate-table.ts";
import { PACKAGE_ROOT } from "../../../generator/project/project.ts";
import { compileJsonSchema, SchemaError } from "../../../generator/runtime/validation/json-schema.ts";
import { rareKeywords } from "../../../generator/runtime/validation/rare-keywords.ts";
import { decodeTable, validateDefinition } from "../../../generator/runtime/validation/validator.ts";
import { readSnapshot } from "../../../generator/tools/snapshot.ts";
import { toolSet } from "../../../generator/tools/tool-set.ts";
import { mutate, rng, sample } from "../../support/schema-values.ts";

/** The issues' pointers, or "ok": what most rows assert. */
function pointers(schema: unknown, value: unknown): string[] | "ok" {
  const result = compileJsonSchema(schema).validate(value);
  return result.ok ? "ok" : result.errors.map((e) => e.pointer);
}

function refusal(schema: unknown): SchemaError {
  try {
    compileJsonSchema(schema, { where: 'tool "t" inputSchema' });
  } catch (err) {
    if (err instanceof SchemaError) return err;
    throw err;
  }
  throw new Error("compiled");
}

describe("compileJsonSchema: the core keywords", () => {
  const point = {
    type: "object",
    properties: { x: { type: "number" }, y: { type: "number" } },
    required: ["x", "y"],
  };
  const rows: [string, unknown, unknown, string[] | "ok"][] = [
    ["type: a match", { type: "string" }, "a", "ok"],
    ["type: a miss", { type: "string" }, 1, [""]],
    ["type: a list", { type: ["string", "null"] }, null, "ok"],
    ["integer refuses a fraction", { type: "integer" }, 1.5, [""]],
    ["integer takes 2.0", { type: "integer" }, 2.0, "ok"],
    ["required and properties", point, { x: 1 }, ["/y"]],
    ["a property of the wrong type", point, { x: 1, y: "2" }, ["/y"]],
    ["properties apply to objects only", { properties: { a: { type: "string" } } }, [1], "ok"],
    ["additionalProperties: false", { properties: { a: {} }, additionalProperties: false }, { a: 1, b: 2 }, ["/b"]],
    ["additionalProperties: a schema", { additionalProperties: { type: "string" } }, { a: "x", b: 2 }, ["/b"]],
    ["items", { type: "array", items: { type: "integer" } }, [1, "2", 3], ["/1"]],
    ["enum", { enum: ["a", 1, null] }, 2, [""]],
    ["enum of structured values, key order aside", { enum: [{ a: 1, b: [2] }] }, { b: [2], a: 1 }, "ok"],
    ["const", { const: { a: [1] } }, { a: [2] }, [""]],
    ["anyOf", { anyOf: [{ type: "string" }, { type: "integer" }] }, 1.5, [""]],
    ["oneOf: both match", { oneOf: [{ type: "number" }, { type: "integer" }] }, 1, [""]],
    ["oneOf: one matches", { oneOf: [{ type: "number" }, { type: "integer" }] }, 1.5, "ok"],
    ["allOf", { allOf: [{ minimum: 0 }, { maximum: 10 }] }, 11, [""]],
    ["$ref to $defs", { $defs: { P: point }, properties: { p: { $ref: "#/$defs/P" } } }, { p: { x: 1 } }, ["/p/y"]],
    [
      "$ref to definitions",
      { definitions: { P: point }, items: { $ref: "#/definitions/P" } },
      [{ x: 1, y: 1 }, {}],
      ["/1/x", "/1/y"],
    ],
    [
      "$ref beside keywords applies both",
      { $defs: { P: point }, $ref: "#/$defs/P", properties: { x: { minimum: 5 } } },
      { x: 1, y: 1 },
      ["/x"],
    ],
    [
      "$ref to the root, recursively",
      { properties: { next: { $ref: "#" }, n: { type: "integer" } } },
      { next: { next: { n: "x" } } },
      ["/next/next/n"],
    ],
    ["items a $ref to the root", { items: { $ref: "#" }, maxItems: 1 }, [[1, 2]], ["/0"]],
    ["$ref with an escaped name", { $defs: { "a/b c": { type: "string" } }, $ref: "#/$defs/a~1b%20c" }, 1, [""]],
    ["$ref to any pointer", { properties: { a: { type: "string" }, b: { $ref: "#/properties/a" } } }, { b: 1 }, ["/b"]],
    ["minimum", { minimum: 1 }, 0, [""]],
    ["maximum", { maximum: 1 }, 2, [""]],
    ["exclusiveMinimum", { exclusiveMinimum: 1 }, 1, [""]],
    ["exclusiveMaximum", { exclusiveMaximum: 1 }, 1, [""]],
    ["bounds ignore other types", { minimum: 1, minLength: 3 }, true, "ok"],
    ["minLength counts code points", { minLength: 2 }, "😀", [""]],
    ["maxLength", { maxLength: 2 }, "abc", [""]],
    ["pattern is not anchored", { pattern: "b" }, "abc", "ok"],
    ["pattern", { pattern: "^a+$" }, "ab", [""]],
    ["minItems", { minItems: 2 }, [1], [""]],
    ["maxItems", { maxItems: 1 }, [1, 2], [""]],
    ["uniqueItems, as JSON", { uniqueItems: true }, [{ a: 1 }, { a: 1 }], [""]],
    ["annotations constrain nothing", { title: "t", description: "d", default: 1, examples: [2], "x-a": 1 }, "x", "ok"],
    ["an unknown keyword is an annotation", { frobnicate: { type: "string" } }, 1, "ok"],
    ["an unknown format is an annotation", { format: "email" }, "not an email", "ok"],
    ["a known format is checked", { format: "uri" }, "not a uri", [""]],
    ["draft-07 named with https", { $schema: "https://json-schema.org/draft-07/schema#", type: "string" }, 1, [""]],
    ["true admits everything", true, { any: 1 }, "ok"],
    ["false admits nothing", false, null, [""]],
    ["a property schema of false", { properties: { a: false } }, { a: 1 }, ["/a"]],
    ["an own property only", { required: ["toString"] }, {}, ["/toString"]],
    [
      "a required name without a schema is still additional",
      { required: ["x"], additionalProperties: false },
      { x: 1 },
      ["/x"],
    ],
  ];
  it.each(rows)("%s", (_, schema, value, want) => {
    expect(pointers(schema, value)).toEqual(want);
  });

  it("names a definition in issues, as the generated validators name theirs", () => {
    const schema = { $defs: { "a/b": { type: "string" } }, properties: { p: { $ref: "#/$defs/a~1b" } } };
    expect(compileJsonSchema(schema).validate({ p: 1 })).toEqual({
      ok: false,
      errors: [{ pointer: "/p", expected: "a/b", got: "1" }],
    });
  });

  it("words issues as the generated validators do", () => {
    expect(compileJsonSchema(point).validate({ x: "1" })).toEqual({
      ok: false,
      errors: [
        { pointer: "/x", expected: "number", got: '"1"' },
        { pointer: "/y", expected: "number", got: "missing" },
      ],
    });
  });
});

describe("compileJsonSchema: the keywords tool schemas use beyond the core", () => {
  const rows: [string, unknown, unknown, string[] | "ok"][] = [
    ["multipleOf", { multipleOf: 0.5 }, 1.25, [""]],
    ["minProperties", { minProperties: 1 }, {}, [""]],
    ["maxProperties", { maxProperties: 1 }, { a: 1, b: 2 }, [""]],
    ["not", { not: { type: "string" } }, "x", [""]],
    ["if/then", { if: { properties: { a: { const: 1 } } }, then: { required: ["b"] } }, { a: 1 }, ["/b"]],
    ["if/else", { if: { properties: { a: { const: 1 } } }, else: { required: ["c"] } }, { a: 2 }, ["/c"]],
    ["then without if means nothing", { then: false }, 1, "ok"],
    ["patternProperties", { patternProperties: { "^n_": { type: "number" } } }, { n_a: "x", s: "y" }, ["/n_a"]],
    [
      "additionalProperties skips keys a pattern matches",
      { properties: { a: {} }, patternProperties: { "^x": {} }, additionalProperties: false },
      { a: 1, x1: 2, y: 3 },
      ["/y"],
    ],
    ["propertyNames", { propertyNames: { maxLength: 2 } }, { ab: 1, abc: 2 }, ["/abc"]],
    ["dependentRequired", { dependentRequired: { card: ["cvv"] } }, { card: "1" }, ["/cvv"]],
    ["dependentRequired without the key", { dependentRequired: { card: ["cvv"] } }, {}, "ok"],
    ["dependentSchemas", { dependentSchemas: { a: { required: ["b"] } } }, { a: 1 }, ["/b"]],
    [
      "draft-07 dependencies, both forms",
      { dependencies: { a: ["b"], c: { required: ["d"] } } },
      { a: 1, c: 1 },
      ["/b", "/d"],
    ],
    ["prefixItems", { prefixItems: [{ type: "string" }, { type: "integer" }] }, ["a", "b"], ["/1"]],
    ["prefixItems with items: false", { prefixItems: [{}], items: false }, [1, 2], ["/1"]],
    ["prefixItems with items for the rest", { prefixItems: [{}], items: { type: "string" } }, [1, "a", 2], ["/2"]],
    [
      "draft-07 array items and additionalItems",
      { items: [{ type: "string" }], additionalItems: false },
      ["a", 1],
      ["/1"],
    ],
    ["contains", { contains: { type: "string" } }, [1, 2], [""]],
    ["contains: one is enough", { contains: { type: "string" } }, [1, "a"], "ok"],
    ["minContains", { contains: { type: "string" }, minContains: 2 }, ["a", 1], [""]],
    ["maxContains", { contains: { type: "string" }, maxContains: 1 }, ["a", "b"], [""]],
    ["minContains: 0 admits none", { contains: { type: "string" }, minContains: 0 }, [], "ok"],
    [
      "a discriminated oneOf reports the member's own issue",
      {
        oneOf: [
          { type: "object", properties: { k: { const: "a" }, n: { type: "number" } }, required: ["k", "n"] },
          { type: "object", properties: { k: { const: "b" } }, required: ["k"] },
        ],
      },
      { k: "a", n: "1" },
      ["/n"],
    ],
  ];
  it.each(rows)("%s", (_, schema, value, want) => {
    expect(pointers(schema, value)).toEqual(want);
  });

  it("words a closed array's extra item", () => {
    expect(compileJsonSchema({ prefixItems: [{}], items: false }).validate([1, 2])).toEqual({
      ok: false,
      errors: [{ pointer: "/1", expected: "no item at this index", got: "2" }],
    });
  });

  it("words what the table has no field for", () => {
    const schema = {
      propertyNames: { pattern: "^[a-z]+$" },
      dependentRequired: { a: ["b"] },
      properties: { list: { contains: { const: 1 }, minContains: 2 } },
    };
    expect(compileJsonSchema(schema).validate({ a: 1, B: 2, list: [1] })).toEqual({
      ok: false,
      errors: [
        { pointer: "/list", expected: "at least 2 items of 1", got: "1 such items" },
        { pointer: "/B", expected: "a property name: a string matching ^[a-z]+$", got: '"B"' },
        { pointer: "/b", expected: 'a value (required when "a" is present)', got: "missing" },
      ],
    });
  });
});

describe("compileJsonSchema agrees with Ajv (2020-12, or draft-07 where it says so) on every keyword it reads", () => {
  const scalar = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.constantFrom("", "a", "ab_", "abcd"),
    fc.integer({ min: -3, max: 12 }),
    fc.double({ min: -2, max: 2, noNaN: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const key = fc.constantFrom("a", "a", "b", "n_1", "n_x", "xy", "Z", "__proto__", "constructor");
  // Objects as JSON.parse makes them (Ajv's equality tells a null-prototype object from a plain one).
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      scalar,
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(key, tie("v"), { maxKeys: 4, noNullPrototype: true }),
    ),
  })).v;
  const schemas: [string, unknown][] = [
    ["numbers", { type: "number", minimum: -1, exclusiveMaximum: 1.5, multipleOf: 0.25 }],
    ["integers", { type: ["integer", "null"], exclusiveMinimum: 0, maximum: 10, not: { const: 5 } }],
    ["strings", { type: "string", minLength: 1, maxLength: 3, pattern: "^[a-z_]*$" }],
    [
      "objects",
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "integer" } },
        additionalProperties: { not: { type: ["array", "object", "null"] } },
        minProperties: 1,
        maxProperties: 3,
      },
    ],
    ["a required name without a schema", { required: ["Z"], additionalProperties: { type: "null" } }],
    [
      "patterns",
      {
        patternProperties: { "^n_": { type: "number" }, x: { type: "string" } },
        additionalProperties: false,
        propertyNames: { maxLength: 3 },
      },
    ],
    [
      "dependencies",
      { dependentRequired: { a: ["b"] }, dependentSchemas: { n_1: { properties: { a: { type: "null" } } } } },
    ],
    [
      "tuples",
      {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "integer" }],
        items: { type: "boolean" },
        uniqueItems: true,
      },
    ],
    [
      "contains",
      { type: "array", contains: { type: "integer", minimum: 2 }, minContains: 1, maxContains: 2, maxItems: 4 },
    ],
    [
      "conditionals",
      {
        if: { type: "object", required: ["a"] },
        then: { properties: { a: { type: "string" } } },
        else: { type: ["array", "string"] },
      },
    ],
    [
      "unions",
      {
        anyOf: [
          { type: "string" },
          { type: "object", properties: { a: { oneOf: [{ type: "integer" }, { minimum: 2 }] } } },
        ],
        allOf: [{ not: { const: "" } }],
      },
    ],
    ["enums", { enum: [1, "a", null, [1], { a: "" }] }],
    [
      "recursion",
      {
        $defs: {
          T: {
            type: "object",
            properties: { a: { type: "integer" }, b: { $ref: "#/$defs/T" } },
            additionalProperties: { $ref: "#" },
          },
        },
        anyOf: [{ $ref: "#/$defs/T" }, { type: "array", items: { $ref: "#" } }],
      },
    ],
    ["booleans", { properties: { a: true, b: false }, items: false }],
    [
      "draft-07 tuples, dependencies and $ref beside keywords",
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        definitions: { S: { type: "string" } },
        items: [{ $ref: "#/definitions/S", maxLength: 1 }, { type: "integer" }],
        additionalItems: { type: "boolean" },
        dependencies: { a: ["b"], xy: { required: ["Z"] } },
      },
    ],
  ];
  it.each(schemas)("%s", (_, schema) => {
    const draft07 = (schema as { $schema?: string }).$schema?.includes("draft-07") === true;
    const ajv = draft07
      ? new Ajv({ strict: false, ownProperties: true })
      : new Ajv2020({ strict: false, ownProperties: true });
    const want = ajv.compile(schema as object);
    const compiled = compileJsonSchema(schema);
    let valid = 0;
    fc.assert(
      fc.property(value, (v) => {
        const ours = compiled.validate(v).ok;
        if (ours) valid++;
        return ours === want(v);
      }),
      { numRuns: 2_000 },
    );
    expect(valid).toBeGreaterThan(0);
    expect(valid).toBeLessThan(2_000);
  });
});

describe("compileJsonSchema: refused schemas name the pointer and keyword", () => {
  const rows: [string, unknown, string, string][] = [
    ["not a schema", 5, "", ""],
    ["a property that is not a schema", { properties: { a: 1 } }, "/properties/a", "properties"],
    ["an unknown type name", { type: "text" }, "/type", "type"],
    ["a remote $ref", { $ref: "https://example.com/s.json" }, "/$ref", "$ref"],
    ["an anchor $ref", { $ref: "#node" }, "/$ref", "$ref"],
    ["a $ref to nothing", { $ref: "#/$defs/Missing" }, "/$ref", "$ref"],
    [
      "a $ref cycle",
      { $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } }, $ref: "#/$defs/A" },
      "/$defs/A/$ref",
      "$ref",
    ],
    ["the root a $ref to itself", { $ref: "#" }, "/$ref", "$ref"],
    [
      "a cycle through anyOf",
      { $defs: { A: { anyOf: [{ type: "string" }, { $ref: "#/$defs/A" }] } } },
      "/$defs/A",
      "$ref",
    ],
    [
      "unevaluatedProperties",
      { properties: { a: { unevaluatedProperties: false } } },
      "/properties/a/unevaluatedProperties",
      "unevaluatedProperties",
    ],
    ["unevaluatedItems", { unevaluatedItems: false }, "/unevaluatedItems", "unevaluatedItems"],
    ["$dynamicRef", { $dynamicRef: "#meta" }, "/$dynamicRef", "$dynamicRef"],
    ["an invalid pattern", { pattern: "(" }, "/pattern", "pattern"],
    ["a negative minLength", { minLength: -1 }, "/minLength", "minLength"],
    ["multipleOf 0", { multipleOf: 0 }, "/multipleOf", "multipleOf"],
    ["draft-04's boolean exclusiveMinimum", { exclusiveMinimum: true }, "/exclusiveMinimum", "exclusiveMinimum"],
    ["a draft-04 $schema", { $schema: "http://json-schema.org/draft-04/schema#" }, "/$schema", "$schema"],
    ["an empty anyOf", { anyOf: [] }, "/anyOf", "anyOf"],
    ["required not names", { required: [1] }, "/required", "required"],
    ["a const that is not JSON", { const: undefined }, "/const", "const"],
    ["a broken definition nothing uses", { $defs: { A: { type: 1 } } }, "/$defs/A/type", "type"],
    [
      "a $ref inside a nested $id",
      { properties: { a: { $id: "other", $ref: "#/$defs/X" } }, $defs: { X: {} } },
      "/properties/a/$ref",
      "$ref",
    ],
  ];
  it.each(rows)("%s", (_, schema, pointer, keyword) => {
    const err = refusal(schema);
    expect({ pointer: err.pointer, keyword: err.keyword }).toEqual({ pointer, keyword });
    expect(err.message).toContain('tool "t" inputSchema#' + pointer);
  });
});

describe("compileJsonSchema: untrusted schemas are bounded", () => {
  it("5,000 levels of nesting are refused, not a stack overflow", () => {
    let deep: unknown = { type: "string" };
    for (let i = 0; i < 5000; i++) deep = { properties: { a: deep } };
    expect(refusal(deep).message).toMatch(/nested at most/);
  });

  it("a chain of 5,000 $refs through allOf is refused, each read in one step", () => {
    const defs: Record<string, unknown> = { D0: { type: "string" } };
    for (let i = 1; i < 5000; i++) defs[`D${i}`] = { allOf: [{ $ref: `#/$defs/D${i - 1}` }], minLength: 1 };
    // Each definition refers to one read before it: no deep reading, so the chain check must find it.
    expect(refusal({ $defs: defs }).message).toMatch(/applicators stacked at most/);
  });

  it("a chain of 5,000 $refs read from the far end is refused too", () => {
    const defs: Record<string, unknown> = { D0: { type: "string" } };
    for (let i = 1; i < 5000; i++) defs[`D${i}`] = { allOf: [{ $ref: `#/$defs/D${i - 1}` }], minLength: 1 };
    expect(refusal({ $defs: defs, $ref: "#/$defs/D4999" }).message).toMatch(/nested at most/);
  });

  it("a $ref DAG that doubles at each level is refused", () => {
    const defs: Record<string, unknown> = { D0: { type: "string" } };
    for (let i = 1; i < 30; i++)
      defs[`D${i}`] = { anyOf: [{ $ref: `#/$defs/D${i - 1}` }, { $ref: `#/$defs/D${i - 1}` }] };
    expect(refusal({ $defs: defs }).message).toMatch(/schemas per value/);
  });

  it("recursion through properties checks values as deep as the validators' limit, then says so", () => {
    const schema = { properties: { a: { $ref: "#" } } };
    let value: unknown = {};
    for (let i = 0; i < 1000; i++) value = { a: value };
    const result = compileJsonSchema(schema).validate(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]!.expected).toMatch(/nesting at most/);
  });

  it("a value deep inside a schema's stacked applicators is an issue, not a stack overflow", () => {
    // 30 anyOf levels per property level, 250 levels: past the stack before the validators' depth limit is reached.
    const defs: Record<string, unknown> = { D0: { properties: { a: { $ref: "#/$defs/D30" } } } };
    for (let i = 1; i <= 30; i++) defs[`D${i}`] = { anyOf: [{ type: "string" }, { $ref: `#/$defs/D${i - 1}` }] };
    let value: unknown = 1;
    for (let i = 0; i < 250; i++) value = { a: value };
    expect(compileJsonSchema({ $defs: defs, $ref: "#/$defs/D30" }).validate(value).ok).toBe(false);
  });

  it("changing the literal afterwards changes nothing", () => {
    const schema = { enum: [{ a: 1 }] };
    const compiled = compileJsonSchema(schema);
    (schema.enum[0] as { a: number }).a = 2;
    expect(compiled.validate({ a: 1 }).ok).toBe(true);
  });
});

describe("compileJsonSchema agrees with Ajv (2020-12 or draft-07) on the tool schema corpus", () => {
  const file = join(PACKAGE_ROOT, "test", "fixtures", "tools", "corpus.json");
  const snapshot = readSnapshot(file);
  const set = toolSet(file, snapshot);
  const tables = decodeTable(encodeTable(buildDefinitionTable(set.schema, "corpus")), undefined, rareKeywords);
  const runs = Number(process.env["TOOLS_AGREEMENT_RUNS"] ?? 2_000);
  const cases = set.tools.flatMap((tool) => {
    const raw = snapshot.tools.find((t) => t.name === tool.name)!;
    const out: [string, unknown, string][] = [[`${tool.name} inputSchema`, raw.inputSchema, tool.arguments]];
    if (tool.structured !== null) out.push([`${tool.name} outputSchema`, raw["outputSchema"], tool.structured]);
    return out;
  });
  it.each(cases)("%s", (_, raw, definition) => {
    const draft07 = (raw as { $schema?: string }).$schema === "http://json-schema.org/draft-07/schema#";
    const ajv = draft07
      ? new Ajv({ strict: false, ownProperties: true })
      : new Ajv2020({ strict: false, ownProperties: true });
    // The runtime checks uri as ajv-formats' fast mode does (validator.ts says why).
    addFormats.default(ajv, { mode: "fast", formats: ["uri", "uri-template", "byte"] });
    const want = ajv.compile(raw as object);
    const compiled = compileJsonSchema(raw);
    const node = set.schema.definitions.get(definition)!;
    let valid = 0;
    fc.assert(
      fc.property(fc.integer(), fc.boolean(), (seed, change) => {
        const rand = rng(seed);
        const built = sample(set.schema, node, rand);
        const value = change ? mutate(built, rand) : built;
        const ours = compiled.validate(value);
        if (ours.ok) valid++;
        // The same interpreter as the generated validator: the same issues, at the same pointers.
        const generated = validateDefinition(tables, definition, value);
        const where = (r: typeof ours) => (r.ok ? [] : r.errors.map((e) => e.pointer));
        return ours.ok === want(value) && where(ours).join() === where(generated).join();
      }),
      { numRuns: runs },
    );
    // The agreement means something only if both answers occur.
    expect(valid).toBeGreaterThan(0);
    expect(valid).toBeLessThan(runs);
  });
});
