import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../generator/load/schema-node.ts";
import { appliesTo, loadFacts } from "../../generator/model/facts.ts";
import { PACKAGE_FACTS } from "../../generator/project/project.ts";
import { checkoutModels } from "../support/checkout.ts";
import { mutate, rng, sample } from "../support/schema-values.ts";
import { REAL_SCHEMA_DIR } from "../support/tmp-project.ts";
import { importGenerated } from "../support/test-tree.ts";

const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
const models = await checkoutModels();
const facts = loadFacts(PACKAGE_FACTS);

interface ValidateModule {
  validate(name: string, value: unknown): { ok: boolean };
}

/**
 * Ajv on the official schema.json, in its own dialect, with ajv-formats, and with the cited upstream slips corrected as the
 * validators correct them (facts.typeCorrections: the node at each path gets schema.ts's types). `uri` uses ajv-formats'
 * "fast" mode: that is the check the generated validators implement (documented in the runtime).
 */
function ajvFor(version: string, era: "legacy" | "modern"): (definition: string) => ValidateFunction {
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

describe.each(VERSIONS)("validators agree with Ajv on the official schema (%s)", (version) => {
  const model = models.find((m) => m.version === version)!;
  const ajv = ajvFor(version, model.era);

  it("on generated valid and mutated values of every definition", async () => {
    const ours = (await importGenerated(`${version}/validate.ts`)) as ValidateModule;
    const disagreements: string[] = [];
    let compared = 0;
    let accepted = 0;
    let rejected = 0;
    for (const [name, node] of model.validated.definitions) {
      const check = ajv(name);
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
          const expected = check(value);
          const got = ours.validate(name, value).ok;
          compared++;
          if (expected) accepted++;
          else rejected++;
          if (got !== expected)
            disagreements.push(
              `${name} seed ${seed}: Ajv ${expected}, ours ${got}: ${JSON.stringify(value).slice(0, 300)}`,
            );
        }
      }
    }
    expect(disagreements.slice(0, 10)).toEqual([]);
    // The corpus must exercise both answers, or agreement would prove nothing.
    expect(accepted).toBeGreaterThan(compared / 5);
    expect(rejected).toBeGreaterThan(compared / 5);
  });
});
