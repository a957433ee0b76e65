import { describe, expect, it } from "vitest";
import { encodeTable } from "../../../generator/emit/validate-table.ts";
import { rareKeywords } from "../../../generator/runtime/validation/rare-keywords.ts";
import { TYPE_BITS, type WireNamedTable, type WireTable } from "../../../generator/runtime/validation/table-format.ts";
import {
  decodeTable,
  guard,
  validateDefinition,
  validateEnvelope,
  validateMethodResult,
  VALIDATION_LIMITS,
  type Tables,
} from "../../../generator/runtime/validation/validator.ts";

/** The interpreter on small hand-written tables; validate.test.ts drives it through each release's generated module. */

describe("the validator interpreter on a small table", () => {
  const { object, string, integer, number, array } = TYPE_BITS;
  // Definitions: 0 Item (object, required name: string, optional count: integer >= 0), 1 List (array of Item, at most 2),
  // 2 Shape (oneOf 3|4 discriminated by kind), 3 Circle, 4 Square, 5 Alias → Item; anonymous nodes follow.
  const table: WireTable = {
    version: "test",
    names: "Item,List,Shape,Circle,Square,Alias",
    nodes: [
      { t: object, p: ["name", ~6, "count", 7] },
      { t: array, i: 0, X: 2 },
      { o: [3, 4], d: "kind" },
      { t: object, p: ["kind", ~8, "r", ~9] },
      { t: object, p: ["kind", ~10, "side", ~9] },
      0,
      { t: string, k: { nl: 1 } },
      { t: integer, n: 0 },
      { c: "circle" },
      { t: number },
      { c: "square" },
      { t: object, a: 11 },
    ],
    methods: [
      ["items/get", 0, 0, 1, 1],
      ["notifications/x", 1, -1, 0],
    ],
    result: 11,
    error: 11,
  };
  const tables = decodeTable(encodeTable(table), undefined, rareKeywords);
  it.each([
    { name: "a valid item", def: "Item", value: { name: "a", count: 1 }, want: [] },
    {
      name: "a missing required property",
      def: "Item",
      value: {},
      want: [{ pointer: "/name", expected: "string", got: "missing" }],
    },
    {
      name: "minLength",
      def: "Item",
      value: { name: "" },
      want: [{ pointer: "/name", expected: "at least 1 characters", got: '""' }],
    },
    {
      name: "minimum",
      def: "Item",
      value: { name: "a", count: -1 },
      want: [{ pointer: "/count", expected: "a number >= 0", got: "-1" }],
    },
    {
      name: "integer",
      def: "Item",
      value: { name: "a", count: 1.5 },
      want: [{ pointer: "/count", expected: "integer", got: "1.5" }],
    },
    {
      name: "maxItems",
      def: "List",
      value: [{ name: "a" }, { name: "b" }, { name: "c" }],
      want: [{ pointer: "", expected: "at most 2 items", got: "array(3)" }],
    },
    {
      name: "items",
      def: "List",
      value: [{ name: "a" }, {}],
      want: [{ pointer: "/1/name", expected: "string", got: "missing" }],
    },
    {
      name: "the discriminator picks the member",
      def: "Shape",
      value: { kind: "square", side: "x" },
      want: [{ pointer: "/side", expected: "number", got: '"x"' }],
    },
    {
      name: "an unknown discriminator",
      def: "Shape",
      value: { kind: "hex" },
      want: [{ pointer: "/kind", expected: '"circle" | "square"', got: '"hex"' }],
    },
    {
      name: "an alias checks as its target",
      def: "Alias",
      value: { name: 5 },
      want: [{ pointer: "/name", expected: "string", got: "5" }],
    },
    {
      name: "an unknown definition",
      def: "Nope",
      value: 1,
      want: [{ pointer: "", expected: "a definition name of test", got: '"Nope"' }],
    },
  ])("$name", ({ def, value, want }) => {
    const result = validateDefinition(tables, def, value);
    if (want.length === 0) expect(result).toEqual({ ok: true });
    else expect(result.ok ? [] : result.errors).toEqual(want);
  });

  it.each([
    {
      name: "a known request",
      msg: { jsonrpc: "2.0", id: 1, method: "items/get", params: { name: "a" } },
      want: { ok: true, kind: "request" },
    },
    { name: "an unknown method", msg: { jsonrpc: "2.0", id: 1, method: "nope" }, want: { ok: false, code: -32601 } },
    {
      name: "a notification sent with an id",
      msg: { jsonrpc: "2.0", id: 1, method: "notifications/x" },
      want: { ok: false, code: -32600 },
    },
    {
      name: "missing required params, named by the definition the params entry is",
      msg: { jsonrpc: "2.0", id: 1, method: "items/get" },
      want: { ok: false, code: -32602, errors: [{ pointer: "/params", expected: "Item", got: "missing" }] },
    },
    {
      name: "params by position",
      msg: { jsonrpc: "2.0", id: 1, method: "items/get", params: [] },
      want: { ok: false, code: -32602 },
    },
    {
      name: "params that are not a structured value",
      msg: { jsonrpc: "2.0", id: 1, method: "items/get", params: 1 },
      want: { ok: false, code: -32600 },
    },
    {
      name: "bad params",
      msg: { jsonrpc: "2.0", id: 1, method: "items/get", params: {} },
      want: { ok: false, code: -32602 },
    },
    {
      name: "a broken envelope",
      msg: { jsonrpc: "2.0", id: null, method: "items/get" },
      want: { ok: false, code: -32600 },
    },
  ])("validateEnvelope: $name", ({ msg, want }) => {
    expect(validateEnvelope(tables, msg)).toMatchObject(want);
  });

  it("the named part decodes onto the table: its definitions are found by name and may use the table's entries", () => {
    const named: WireNamedTable = { names: "Wrapper", nodes: [{ t: object, p: ["item", ~0] }] };
    const all = decodeTable(encodeTable(named), tables);
    expect(validateDefinition(all, "Wrapper", { item: {} })).toEqual({
      ok: false,
      errors: [{ pointer: "/item/name", expected: "string", got: "missing" }],
    });
    expect(validateDefinition(all, "Item", { name: "a" })).toEqual({ ok: true });
    expect(validateDefinition(tables, "Wrapper", {})).toMatchObject({
      ok: false,
      errors: [{ expected: "a definition name of test" }],
    });
    expect(all.methods).toBe(tables.methods);
  });

  it("an alias definition is reported by the name it was asked for, not its target's", () => {
    expect(validateDefinition(tables, "Alias", 5)).toEqual({
      ok: false,
      errors: [{ pointer: "", expected: "Alias", got: "5" }],
    });
    expect(validateDefinition(tables, "Item", 5)).toMatchObject({ errors: [{ expected: "Item" }] });
  });

  it("validateMethodResult matches any result of the method; a guard answers with a boolean", () => {
    expect(validateMethodResult(tables, "items/get", [{ name: "a" }])).toEqual({ ok: true });
    expect(validateMethodResult(tables, "notifications/x", {})).toMatchObject({ ok: false });
    const isItem = guard(() => tables, 0);
    expect([isItem({ name: "a" }), isItem({})]).toEqual([true, false]);
  });
});

describe("each check's state is its own: nothing a call leaves behind reaches the next", () => {
  const { object, string, number } = TYPE_BITS;
  // 0 Item (required name: string, optional count: number), 1 Either (anyOf two objects, no discriminator).
  const tables = decodeTable(
    encodeTable({
      version: "test",
      names: "Item,Either",
      nodes: [
        { t: object, p: ["name", ~2, "count", 3] },
        { u: [4, 5] },
        { t: string },
        { t: number },
        { t: object, p: ["a", ~2] },
        { t: object, p: ["b", ~3] },
      ],
      methods: [],
      result: 0,
      error: 0,
    }),
  );
  const missingName = [{ pointer: "/name", expected: "string", got: "missing" }];

  it("a getter that throws while a union member is tried leaves the next call's issues whole", () => {
    const hostile = {
      get a(): string {
        throw new Error("getter");
      },
    };
    expect(() => validateDefinition(tables, "Either", hostile)).toThrow("getter");
    expect(validateDefinition(tables, "Item", {})).toEqual({ ok: false, errors: missingName });
    expect(validateDefinition(tables, "Either", { b: 1 })).toEqual({ ok: true });
  });

  it("a check started inside another (a getter that validates) keeps its issues and the outer one's apart", () => {
    let inner: unknown;
    const value = {
      get count(): number {
        inner = validateDefinition(tables, "Item", {});
        return 1;
      },
    };
    expect(validateDefinition(tables, "Item", value)).toEqual({ ok: false, errors: missingName });
    expect(inner).toEqual({ ok: false, errors: missingName });
  });

  it("JSON equality is the table's: decoding one with rareKeywords leaves another comparing by identity", () => {
    const fixed = (rare?: typeof rareKeywords): Tables =>
      decodeTable(
        encodeTable({ version: "test", names: "Fixed", nodes: [{ c: { a: 1 } }], methods: [], result: 0, error: 0 }),
        undefined,
        rare,
      );
    const plain = fixed();
    expect(validateDefinition(plain, "Fixed", { a: 1 }).ok).toBe(false);
    expect(validateDefinition(fixed(rareKeywords), "Fixed", { a: 1 })).toEqual({ ok: true });
    expect(validateDefinition(plain, "Fixed", { a: 1 }).ok).toBe(false);
  });

  it("a table with rare keywords decoded without rareKeywords is refused in words", () => {
    const text = encodeTable({
      version: "test",
      names: "Short",
      nodes: [{ t: TYPE_BITS.string, k: { xl: 3 } }],
      methods: [],
      result: 0,
      error: 0,
    });
    expect(() => decodeTable(text)).toThrow("a table with oneOf or rare keywords needs rareKeywords");
  });
});

describe("limits and presence, on a small table", () => {
  const { object, string, array } = TYPE_BITS;
  // 0 Nest: an array of Nests; 1 Item: required name: string; 2 Items: array of Item; params of deep/x hold a Nest.
  const tables = decodeTable(
    encodeTable({
      version: "test",
      names: "Nest,Item,Items",
      nodes: [
        { t: array, i: 0 },
        { t: object, p: ["name", ~3] },
        { t: array, i: 1 },
        { t: string },
        { t: object, p: ["v", 0] },
      ],
      methods: [["deep/x", 0, 4, 1]],
      result: 1,
      error: 1,
    }),
  );
  const nested = (depth: number): unknown => {
    let value: unknown = [];
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  const tooDeep = { expected: `nesting at most ${VALIDATION_LIMITS.maxDepth} levels deep`, got: "deeper nesting" };

  it("nesting past maxDepth is one issue at the value checked, not a stack overflow", () => {
    expect(validateDefinition(tables, "Nest", nested(VALIDATION_LIMITS.maxDepth))).toEqual({ ok: true });
    expect(validateDefinition(tables, "Nest", nested(100_000))).toEqual({
      ok: false,
      errors: [{ pointer: "", ...tooDeep }],
    });
    expect(guard(() => tables, 0)(nested(100_000))).toBe(false);
    expect(
      validateEnvelope(tables, { jsonrpc: "2.0", id: 1, method: "deep/x", params: { v: nested(100_000) } }),
    ).toEqual({
      ok: false,
      code: -32602,
      errors: [{ pointer: "/params", ...tooDeep }],
    });
  });

  it("at most maxErrors issues, in the order the value is walked", () => {
    const result = validateDefinition(
      tables,
      "Items",
      Array.from({ length: 100 }, () => ({})),
    );
    const errors = result.ok ? [] : result.errors;
    expect(errors).toHaveLength(VALIDATION_LIMITS.maxErrors);
    expect(errors.slice(0, 2).map((e) => e.pointer)).toEqual(["/0/name", "/1/name"]);
  });

  it("a required property is the value's own: neither a __proto__ key nor an inherited one supplies it", () => {
    const missing = { ok: false, errors: [{ pointer: "/name", expected: "string", got: "missing" }] };
    expect(validateDefinition(tables, "Item", JSON.parse('{"__proto__": {"name": "x"}}'))).toEqual(missing);
    expect(validateDefinition(tables, "Item", Object.create({ name: "x" }))).toEqual(missing);
  });
});
