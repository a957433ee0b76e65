import { describe, expect, it } from "vitest";
import { encodeTable } from "../../../generator/emit/validate-table.ts";
import { rareKeywords } from "../../../generator/runtime/validation/rare-keywords.ts";
import { TYPE_BITS, type WireEntry } from "../../../generator/runtime/validation/table-format.ts";
import { decodeTable, validateDefinition } from "../../../generator/runtime/validation/validator.ts";

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
