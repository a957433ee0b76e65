import { describe, expect, it } from "vitest";
import { rareKeywords } from "../../generator/runtime/rare-keywords.ts";
import { encodeTable } from "../../generator/emit/validate-table.ts";
import {
  TYPE_BITS,
  type WireEntry,
  type WireNamedTable,
  type WireTable,
} from "../../generator/runtime/table-format.ts";
import {
  decodeTable,
  guard,
  validateDefinition,
  validateEnvelope,
  validateMethodResult,
} from "../../generator/runtime/validator.ts";

/** The validator interpreter as source, tested directly: one row per rule, given → want. */

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
      name: "missing required params, worded for the value even though the params entry is the definition Item",
      msg: { jsonrpc: "2.0", id: 1, method: "items/get" },
      want: { ok: false, code: -32602, errors: [{ pointer: "/params", expected: "object", got: "missing" }] },
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

  it("a definition the message table leaves unnamed is found by the name its alias in the named part gives", () => {
    const base = decodeTable(
      encodeTable({
        version: "test",
        names: ",Kept",
        methods: [],
        result: 2,
        error: 2,
        nodes: [{ t: object }, { t: object }, {}],
      }),
    );
    expect([...base.index.keys()]).toEqual(["Kept"]);
    const all = decodeTable(encodeTable({ names: "Unnamed", nodes: [0] }), base);
    expect([...all.index]).toEqual([
      ["Kept", 1],
      ["Unnamed", 3],
    ]);
    expect(validateDefinition(all, "Unnamed", 5)).toEqual({
      ok: false,
      errors: [{ pointer: "", expected: "Unnamed", got: "5" }],
    });
    expect(validateDefinition(all, "", 5)).toMatchObject({
      ok: false,
      errors: [{ expected: "a definition name of test" }],
    });
  });

  it("the table's text keeps property names and values that hold its separators or read as numbers", () => {
    const odd = ["a,b", "c;d", "e:f", "7", "", '"q"', "line\nbreak", "-1", "__proto__"];
    const text = encodeTable({
      version: "test",
      names: "Odd",
      nodes: [
        { t: object, p: odd.flatMap((name) => [name, ~1]) },
        { t: string, e: ["x;y", "z,w"], k: { r: "^[;,]*$|^z,w$" } },
      ],
      methods: [],
      result: 1,
      error: 1,
    });
    const decoded = decodeTable(text, undefined, rareKeywords);
    expect(decoded.nodes[0]!.keys).toEqual(odd);
    expect(validateDefinition(decoded, "Odd", Object.fromEntries(odd.map((k) => [k, "z,w"])))).toEqual({ ok: true });
    expect(validateDefinition(decoded, "Odd", Object.fromEntries(odd.map((k) => [k, ";,"])))).toMatchObject({
      ok: false,
      errors: odd.map(() => ({ expected: '"x;y" | "z,w"' })),
    });
  });

  it("validateMethodResult matches any result of the method; a guard answers with a boolean", () => {
    expect(validateMethodResult(tables, "items/get", [{ name: "a" }])).toEqual({ ok: true });
    expect(validateMethodResult(tables, "notifications/x", {})).toMatchObject({ ok: false });
    const isItem = guard(() => tables, 0);
    expect([isItem({ name: "a" }), isItem({})]).toEqual([true, false]);
  });
});

describe("the validator's keywords only tool schemas use (WireRare)", () => {
  const { object, string, number, array } = TYPE_BITS;
  /** Definitions only (`names`, entry 0 on), decoded with the rare keywords installed; `anchor` stands in for the envelope entries. */
  const rareTables = (names: string, nodes: WireEntry[], anchor = 0) =>
    decodeTable(
      encodeTable({ version: "test", names, methods: [], result: anchor, error: anchor, nodes }),
      undefined,
      rareKeywords,
    );
  // 0 Rare: 1 to 2 properties; n: number in (0, 10), a multiple of 0.5; tags: unique items; name: a string but "admin".
  // If name is "admin" then n is required, else tags is.
  const tables = rareTables(
    "Rare",
    [
      { t: object, p: ["n", 1, "tags", 2, "name", 3], k: { np: 1, xp: 2, if: 5, th: 6, el: 9 } },
      { t: number, k: { en: 0, ex: 10, m: 0.5 } },
      { t: array, k: { q: 1 } },
      { t: string, k: { no: 4 } },
      { c: "admin" },
      { p: ["name", ~4] },
      { p: ["n", ~7] },
      { t: number },
      {},
      { p: ["tags", ~2] },
    ],
    8,
  );
  it.each([
    { value: { n: 1.5, tags: [] }, want: [] },
    { value: { n: 0, tags: [] }, want: [{ pointer: "/n", expected: "a number > 0", got: "0" }] },
    { value: { n: 10, tags: [] }, want: [{ pointer: "/n", expected: "a number < 10", got: "10" }] },
    { value: { n: 1.2, tags: [] }, want: [{ pointer: "/n", expected: "a multiple of 0.5", got: "1.2" }] },
    { value: {}, want: [{ pointer: "", expected: "at least 1 properties", got: "object" }] },
    {
      value: { name: "bob", tags: [], n: 1 },
      want: [{ pointer: "", expected: "at most 2 properties", got: "object" }],
    },
    {
      // Both `properties` and the `else` branch check tags: each says so, as Ajv's allErrors would.
      value: { n: 1, tags: [1, [2], [2]] },
      want: [
        { pointer: "/tags", expected: "unique items (1 and 2 are equal)", got: "array(3)" },
        { pointer: "/tags", expected: "unique items (1 and 2 are equal)", got: "array(3)" },
      ],
    },
    {
      value: { name: "admin" },
      want: [
        { pointer: "/name", expected: 'not "admin"', got: '"admin"' },
        { pointer: "/n", expected: "number", got: "missing" },
      ],
    },
    { value: { name: "bob" }, want: [{ pointer: "/tags", expected: "array", got: "missing" }] },
  ])("$value", ({ value, want }) => {
    const result = validateDefinition(tables, "Rare", value);
    expect(result.ok ? [] : result.errors).toEqual(want);
  });

  it("oneOf: exactly one member matches; several, or none, are reported", () => {
    const either = rareTables(
      "Holder",
      [{ t: object, p: ["v", ~1] }, { o: [2, 3] }, { t: number }, { t: TYPE_BITS.integer }],
      1,
    );
    const issues = (value: unknown) => {
      const result = validateDefinition(either, "Holder", { v: value });
      return result.ok ? [] : result.errors;
    };
    expect(issues(1.5)).toEqual([]);
    expect(issues(3)).toEqual([
      { pointer: "/v", expected: "exactly one of number | integer", got: "3 matching several" },
    ]);
    expect(issues("a")).toEqual([{ pointer: "/v", expected: "number | integer", got: '"a"' }]);
  });

  it("const and enum values that are objects or arrays compare as JSON once a table is decoded with rareKeywords", () => {
    const structured = rareTables("Fixed,Choice", [{ c: { a: [1, { b: null }] } }, { e: ["x", [1, 2], { y: true }] }]);
    expect(validateDefinition(structured, "Fixed", { a: [1, { b: null }] })).toEqual({ ok: true });
    expect(validateDefinition(structured, "Fixed", { a: [1, { b: 0 }] })).toMatchObject({
      ok: false,
      errors: [{ expected: "Fixed" }],
    });
    expect([[1, 2], { y: true }, "x"].map((v) => validateDefinition(structured, "Choice", v).ok)).toEqual([
      true,
      true,
      true,
    ]);
    expect(validateDefinition(structured, "Choice", [2, 1]).ok).toBe(false);
  });
});
