// runtime/server/schema-literal.ts is types only: the type of the values a JSON Schema literal accepts.
// Its rows compile here (a wrong row is a tsc error when the project is type-checked).
import { describe, expect, it } from "vitest";
import type { SchemaValue } from "../../../generated/runtime/server/schema-literal.js";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(verdict: Same<A, B>): boolean => verdict;

const OBJECT = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer" },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["city"],
} as const;
const REFS = {
  type: "object",
  $defs: { unit: { enum: ["C", "F"] } },
  properties: { unit: { $ref: "#/$defs/unit" }, either: { anyOf: [{ type: "string" }, { type: "null" }] } },
  required: ["unit"],
} as const;

describe("SchemaValue", () => {
  it("types objects, required and optional members, arrays, enums, refs and unions", () => {
    expect(
      same<
        SchemaValue<typeof OBJECT>,
        { readonly city: string; readonly days?: number; readonly tags?: readonly string[] }
      >(true),
    ).toBe(true);
    expect(same<SchemaValue<typeof REFS>, { readonly unit: "C" | "F"; readonly either?: string | null }>(true)).toBe(
      true,
    );
    expect(same<SchemaValue<{ const: 3 }>, 3>(true)).toBe(true);
    expect([OBJECT.type, REFS.type]).toEqual(["object", "object"]);
    expect(same<SchemaValue<{ type: readonly ["string", "null"] }>, string | null>(true)).toBe(true);
    expect(same<SchemaValue<{ not: object }>, unknown>(true)).toBe(true);
    expect(same<SchemaValue<{ type: "object" }>, { readonly [key: string]: unknown }>(true)).toBe(true);
  });
});
