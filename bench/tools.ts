import { join } from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { buildDefinitionTable, encodeTable } from "../generator/emit/validate-table.ts";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { rareKeywords } from "../generator/runtime/validation/rare-keywords.ts";
import { decodeTable, validateDefinition } from "../generator/runtime/validation/validator.ts";
import { readSnapshot } from "../generator/tools/snapshot.ts";
import { toolSet } from "../generator/tools/tool-set.ts";
import { mutate, rng, sample } from "../test/support/schema-values.ts";
import { alternate } from "./measure.ts";
import { row, type BenchRow } from "./table.ts";

const CORPUS = join(PACKAGE_ROOT, "test", "fixtures", "tools", "corpus.json");
/** Values per corpus tool: half built from its schema, half those mutated, as the agreement test makes them. */
const VALUES = 2000;
const ROUNDS = 7;

export const TOOLS_COMMANDS = [
  `in process: the arguments of every tool in test/fixtures/tools/corpus.json (${VALUES} values each, built and mutated) through the generated validator table vs Ajv 8 compiled validators; ${ROUNDS} alternating rounds, medians`,
];

/** What `callTool`'s and `createToolServer`'s argument checks cost against Ajv's compiled code (which needs `eval`). */
export function benchTools(): BenchRow[] {
  const snapshot = readSnapshot(CORPUS);
  const set = toolSet(CORPUS, snapshot);
  const tables = decodeTable(encodeTable(buildDefinitionTable(set.schema, "corpus")), undefined, rareKeywords);
  const cases = set.tools.map((tool) => {
    const raw = snapshot.tools.find((t) => t.name === tool.name)!.inputSchema;
    const ajv =
      raw["$schema"] === "http://json-schema.org/draft-07/schema#"
        ? new Ajv({ strict: false, ownProperties: true, logger: false })
        : new Ajv2020({ strict: false, ownProperties: true, logger: false });
    addFormats.default(ajv, { mode: "fast", formats: ["uri", "uri-template", "byte"] });
    const rand = rng(tool.name.length);
    const node = set.schema.definitions.get(tool.arguments)!;
    const values = Array.from({ length: VALUES }, (_, i) => {
      const built = sample(set.schema, node, rand);
      return i % 2 === 0 ? built : mutate(built, rand);
    });
    return { name: tool.arguments, check: ajv.compile(raw), values };
  });
  let sink = 0;
  const time = (run: () => void) => () => {
    const started = performance.now();
    run();
    return performance.now() - started;
  };
  const ours = time(() => {
    for (const c of cases) for (const v of c.values) if (validateDefinition(tables, c.name, v).ok) sink++;
  });
  const ajv = time(() => {
    for (const c of cases) for (const v of c.values) if (c.check(v)) sink++;
  });
  const [oursMs, ajvMs] = alternate(ROUNDS, ours, ajv);
  if (sink < 0) throw new Error("unreachable");
  const count = (cases.length * VALUES).toLocaleString("en-US");
  return [row("tools", `tool arguments validated (${count} values, no eval) vs Ajv compiled`, oursMs!, ajvMs!, "ms")];
}
