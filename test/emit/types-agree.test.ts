import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonType, JsonValue, SchemaNode } from "../../generator/load/schema-node.ts";
import { appliesTo, loadFacts } from "../../generator/model/facts.ts";
import { PACKAGE_FACTS, PACKAGE_ROOT } from "../../generator/project/project.ts";
import { checkoutModels } from "../support/checkout.ts";
import { rng, sample } from "../support/schema-values.ts";
import { formatDiagnostics, typecheck } from "../support/typecheck.ts";
import { importGenerated } from "../support/test-tree.ts";

/**
 * The types and the validators agree: what a release's validator accepts type-checks as the definition's type, and every
 * numeric field is the same kind (integer or number) in what the types are written from and what the validators check.
 * Where the types are narrower on purpose (facts.typeRefinements: InputRequiredResult.resultType is "input_required"), a value
 * that fits a refined definition's validator only without its refinement is left out. Values are samples of the validated
 * schema and the same with one number turned into a fraction or an integer.
 */
const models = await checkoutModels();
const facts = loadFacts(PACKAGE_FACTS);
const DIR = join(PACKAGE_ROOT, "test", ".tmp", "types-agree");

interface ValidateModule {
  validate(name: string, value: unknown): { ok: boolean };
}

/** Changes one number in the value to a fraction or an integer: values that probe integer/number fields. Null when it has none. */
function probe(value: JsonValue, rand: () => number): JsonValue | null {
  const numbers: (string | number)[][] = [];
  const walk = (v: JsonValue, path: (string | number)[]): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    else if (typeof v === "number") numbers.push(path);
  };
  walk(value, []);
  const path = numbers[Math.floor(rand() * numbers.length)];
  if (path === undefined) return null;
  const replacement = rand() < 0.5 ? 95.5 : 7;
  if (path.length === 0) return replacement;
  const copy = structuredClone(value);
  let parent = copy as Record<string | number, JsonValue>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, JsonValue>;
  parent[path[path.length - 1]!] = replacement;
  return copy;
}

/** Whether the value holds an object that fits a refined definition's validator but not its refinement: narrower on purpose. */
function throughRefinement(
  value: JsonValue,
  refinements: readonly { definition: string; property: string; const: unknown }[],
  ours: ValidateModule,
): boolean {
  if (Array.isArray(value)) return value.some((v) => throughRefinement(v, refinements, ours));
  if (value === null || typeof value !== "object") return false;
  const here = refinements.some(
    (r) => Object.hasOwn(value, r.property) && value[r.property] !== r.const && ours.validate(r.definition, value).ok,
  );
  return here || Object.values(value).some((v) => throughRefinement(v, refinements, ours));
}

/** Every node's numeric kinds by pointer, through properties, items, additionalProperties and combinators. */
function numericKinds(node: SchemaNode, out = new Map<string, string>()): Map<string, string> {
  const numeric = (node.type ?? []).filter((t: JsonType) => t === "integer" || t === "number");
  if (numeric.length > 0) out.set(node.pointer, numeric.join(","));
  for (const p of node.properties ?? []) numericKinds(p.schema, out);
  for (const child of [node.items, ...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])])
    if (child !== undefined) numericKinds(child, out);
  if (typeof node.additionalProperties === "object") numericKinds(node.additionalProperties, out);
  return out;
}

describe("the types and the validators agree", () => {
  it.each(models.map((m) => [m.version, m] as const))(
    "%s: every integer/number field is the same kind in the types as in the validators",
    (_version, model) => {
      const differ: string[] = [];
      for (const [name, definition] of model.definitions) {
        const types = numericKinds(definition.schema);
        const validated = numericKinds(model.validated.definitions.get(name)!);
        for (const pointer of new Set([...types.keys(), ...validated.keys()])) {
          if (types.get(pointer) !== validated.get(pointer))
            differ.push(
              `${pointer}: types ${types.get(pointer) ?? "none"}, validators ${validated.get(pointer) ?? "none"}`,
            );
        }
      }
      expect(differ).toEqual([]);
    },
  );

  it("values each validator accepts type-check as the definition's type, in every release (one program)", async () => {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    const files: string[] = [];
    let accepted = 0;
    let fractions = 0;
    for (const model of models) {
      const refinements = facts.typeRefinements.filter((r) => appliesTo(r.versions, model.version, model.era));
      const ours = (await importGenerated(`${model.version}/validate.ts`)) as ValidateModule;
      const lines = [`import type * as T from "../../../generated/${model.version}/types.js";`];
      for (const [name, node] of model.validated.definitions) {
        for (let seed = 0; seed < 4; seed++) {
          const rand = rng(seed * 104729 + name.length);
          const valid = sample(model.validated, node, rand);
          for (const value of [valid, probe(valid, rand), probe(valid, rand)]) {
            if (value === null || !ours.validate(name, value).ok || throughRefinement(value, refinements, ours))
              continue;
            const text = JSON.stringify(value);
            accepted++;
            if (/\d\.\d/.test(text)) fractions++;
            lines.push(`export const v${lines.length}: T.${name} = ${text};`);
          }
        }
      }
      const file = join(DIR, `${model.version}.ts`);
      writeFileSync(file, lines.join("\n") + "\n");
      files.push(file);
    }
    // Enough accepted values, fractions among them, or agreement would prove little.
    expect(accepted).toBeGreaterThan(1000);
    expect(fractions).toBeGreaterThan(50);
    expect(formatDiagnostics(typecheck(files).filter((d) => d.file.startsWith(DIR)))).toBe("");
  });
});
