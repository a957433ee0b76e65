import { describe, expect, it } from "vitest";
import { encodeTable } from "../../../generator/emit/validate-table.ts";
import { rareKeywords } from "../../../generator/runtime/validation/rare-keywords.ts";
import { ANY_TYPE, FORMATS, TYPE_BITS, TYPE_NAMES } from "../../../generator/runtime/validation/table-format.ts";
import { decodeTable, validateDefinition } from "../../../generator/runtime/validation/validator.ts";

/** The table's text: what encodeTable writes, decodeTable reads back. */
describe("the validator table's text", () => {
  const { object, string } = TYPE_BITS;
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

  const formatted = (f: string) =>
    decodeTable(
      encodeTable({ version: "test", names: "Text", nodes: [{ t: string, f }], methods: [], result: 0, error: 0 }),
    );

  it.each(FORMATS)("%s, a format the emitter lets into a table, is checked by the interpreter", (f) => {
    expect(validateDefinition(formatted(f), "Text", "a b")).toEqual({
      ok: false,
      errors: [{ pointer: "", expected: `a string in format ${f}`, got: '"a b"' }],
    });
  });

  it("a format the interpreter does not know is an annotation, as JSON Schema has it", () => {
    expect(validateDefinition(formatted("date-time"), "Text", "a b")).toEqual({ ok: true });
    expect(validateDefinition(formatted("constructor"), "Text", "a b")).toEqual({ ok: true });
  });
});

describe("type bits", () => {
  it("TYPE_NAMES names each bit at its position, and ANY_TYPE is every bit", () => {
    expect(TYPE_NAMES.map((_, j) => 1 << j)).toEqual(
      TYPE_NAMES.map((name) => TYPE_BITS[name as keyof typeof TYPE_BITS]),
    );
    expect(Object.values(TYPE_BITS).reduce((all, b) => all | b, 0)).toBe(ANY_TYPE);
    expect(TYPE_NAMES).toHaveLength(Object.keys(TYPE_BITS).length);
  });
});
