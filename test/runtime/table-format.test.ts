import { describe, expect, it } from "vitest";
import { encodeTable } from "../../generator/emit/validate-table.ts";
import { rareKeywords } from "../../generator/runtime/rare-keywords.ts";
import { TYPE_BITS } from "../../generator/runtime/table-format.ts";
import { decodeTable, validateDefinition } from "../../generator/runtime/validator.ts";

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
});
