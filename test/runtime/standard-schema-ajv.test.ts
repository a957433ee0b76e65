import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/load/schema-node.ts";
import { appliesTo, loadFacts } from "../../generator/model/facts.ts";
import { PACKAGE_FACTS } from "../../generator/project/project.ts";
import type { StandardIssue, StandardSchema } from "../../generator/runtime/validation/standard-schema.ts";
import { checkoutModels } from "../support/checkout.ts";
import { mutate, rng, sample } from "../support/schema-values.ts";
import { REAL_SCHEMA_DIR } from "../support/tmp-project.ts";
import { importGenerated } from "../support/test-tree.ts";

/**
 * Every release's `standardSchema(name)` on the validation corpus (validate-ajv.test.ts's values): its `validate` agrees
 * with the `validate(name)` it wraps, issue for issue, and Ajv compiled from its `jsonSchema` (draft 2020-12, whatever
 * the release's own dialect) agrees with Ajv on the official schema.json, so the JSON Schema it gives is the one checked.
 */
const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
const models = await checkoutModels();
const facts = loadFacts(PACKAGE_FACTS);

interface ValidateModule {
  validate(name: string, value: unknown): { ok: true } | { ok: false; errors: { pointer: string }[] };
  standardSchema(name: string): StandardSchema<unknown>;
}

/** Ajv on the official schema, with the cited upstream slips corrected as the validators correct them (validate-ajv.test.ts). */
function officialAjv(version: string, era: "legacy" | "modern"): (definition: string) => ValidateFunction {
  const schema = JSON.parse(readFileSync(join(REAL_SCHEMA_DIR, version, "schema.json"), "utf8")) as Record<
    string,
    unknown
  >;
  const is2020 = Object.prototype.hasOwnProperty.call(schema, "$defs");
  const definitions = schema[is2020 ? "$defs" : "definitions"] as Record<string, unknown>;
  for (const c of facts.typeCorrections.filter((x) => appliesTo(x.versions, version, era))) {
    const node = c.path.reduce<unknown>(
      (at, key) => (at as Record<string | number, unknown>)[key],
      definitions[c.definition],
    ) as { type: unknown };
    node.type = [...c.type];
  }
  const ajv = is2020 ? new Ajv2020({ strict: false }) : new Ajv({ strict: false });
  addFormats.default(ajv, { mode: "fast" });
  ajv.addSchema(schema, "mcp");
  return (definition) => ajv.getSchema(`mcp#/${is2020 ? "$defs" : "definitions"}/${definition}`)!;
}

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

describe.each(VERSIONS)("standardSchema(name) of %s", (version) => {
  const model = models.find((m) => m.version === version)!;

  it("agrees with validate(name) and, through its jsonSchema, with Ajv on the official schema, on every definition", async () => {
    const ours = (await importGenerated(`${version}/validate.ts`)) as ValidateModule;
    const official = officialAjv(version, model.era);
    const fromJsonSchema = new Ajv2020({ strict: false });
    addFormats.default(fromJsonSchema, { mode: "fast" });
    const disagreements: string[] = [];
    let compared = 0;
    let accepted = 0;
    for (const [name, node] of model.validated.definitions) {
      const standard = ours.standardSchema(name)["~standard"];
      expect(standard.version).toBe(1);
      expect(standard.vendor).toBe("mcp-bindgen");
      const check = official(name);
      const rebuilt = fromJsonSchema.compile(standard.jsonSchema.input({ target: "draft-2020-12" }));
      for (let seed = 0; seed < 6; seed++) {
        const rand = rng(seed * 7919 + name.length);
        const valid = sample(model.validated, node, rand);
        const values: JsonValue[] = [
          valid,
          mutate(valid, rand),
          mutate(valid, rand),
          mutate(mutate(valid, rand), rand),
        ];
        for (const value of values) {
          compared++;
          const wrapped = ours.validate(name, value);
          const result = standard.validate(value);
          if (wrapped.ok) accepted++;
          const same = wrapped.ok
            ? result.issues === undefined && (result as { value: unknown }).value === value
            : JSON.stringify(result.issues?.map((i) => pointerOf(i.path))) ===
              JSON.stringify(wrapped.errors.map((e) => e.pointer));
          const expected = check(value);
          if (!same || rebuilt(value) !== expected || wrapped.ok !== expected)
            disagreements.push(
              `${name} seed ${seed}: Ajv ${expected}, validate ${wrapped.ok}, standard ${JSON.stringify(result.issues ?? "ok")}, ` +
                `Ajv on jsonSchema ${rebuilt(value)}: ${JSON.stringify(value).slice(0, 300)}`,
            );
        }
      }
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
    expect(accepted).toBeGreaterThan(compared / 5);
    expect(accepted).toBeLessThan(compared - compared / 5);
  }, 120_000);
});
