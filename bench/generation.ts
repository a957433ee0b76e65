import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../generator/project.ts";
import { alternate, timeSpawn } from "./measure.ts";
import { row, type BenchRow } from "./table.ts";

const SECTION = "generation";
const ROUNDS = 3;

/** Where the five schema files come from: MCP_SCHEMA_DIR, else the project's pulled copies. */
export function schemaSource(): string {
  const env = process.env["MCP_SCHEMA_DIR"];
  return env && env.trim() !== "" ? env : join(PACKAGE_ROOT, "schema");
}

export const GENERATION_COMMANDS = [
  "npm run -s generate -- --force --quiet --project <tmp>   (a fresh process each run, from a snapshot of generator/; all five versions)",
  "npm run -s generate -- --quiet --project <tmp>           (again, nothing changed: the no-op path)",
  "node_modules/.bin/json2ts -i '<tmp>/in/*.json' -o <tmp>/out/ --unreachableDefinitions   (one process, types only)",
  "node --import tsx -e ''                                  (Node with tsx's loader, as npm run generate starts it: the floor of any run)",
];

/**
 * A snapshot of the generator (its files, package.json, node_modules linked) to run from, so
 * every round measures the same code even while generator/ is being edited, and the no-op
 * rounds really find nothing changed.
 */
function snapshotGenerator(root: string): string {
  const dir = join(root, "snapshot");
  cpSync(join(PACKAGE_ROOT, "generator"), join(dir, "generator"), { recursive: true });
  cpSync(join(PACKAGE_ROOT, "package.json"), join(dir, "package.json"));
  symlinkSync(join(PACKAGE_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/**
 * Cold generation against json-schema-to-typescript on the same five files, in a throwaway
 * project so the repository's generated/ is untouched. Each side is one fresh process.
 */
export function benchGeneration(): BenchRow[] {
  const root = mkdtempSync(join(tmpdir(), "mcp-bindgen-bench-"));
  try {
    const schemaDir = join(root, "schema");
    mkdirSync(join(root, "in"), { recursive: true });
    mkdirSync(join(root, "out"), { recursive: true });
    cpSync(join(PACKAGE_ROOT, "schema", "lock.json"), join(schemaDir, "lock.json"));
    cpSync(join(PACKAGE_ROOT, "schema", "facts.json"), join(schemaDir, "facts.json"));
    const versions = Object.keys((JSON.parse(readFileSync(join(schemaDir, "lock.json"), "utf8")) as { versions: object }).versions);
    for (const v of versions) {
      cpSync(join(schemaSource(), v, "schema.json"), join(schemaDir, v, "schema.json"));
      cpSync(join(schemaSource(), v, "schema.json"), join(root, "in", `${v}.json`));
    }
    const env = { ...process.env, MCP_SCHEMA_DIR: "" };
    const generator = snapshotGenerator(root);
    const ours =
      (...extra: string[]) =>
      () =>
        timeSpawn("npm", ["run", "-s", "generate", "--", "--quiet", "--project", root, ...extra], { cwd: generator, env });
    const json2ts = () =>
      timeSpawn(join(PACKAGE_ROOT, "node_modules", ".bin", "json2ts"), ["-i", join(root, "in", "*.json"), "-o", join(root, "out") + "/", "--unreachableDefinitions"], {
        cwd: root,
      });
    const tsx = () => timeSpawn(process.execPath, ["--import", "tsx", "-e", ""], { cwd: PACKAGE_ROOT });
    const cold = alternate(ROUNDS, ours("--force"), json2ts);
    const noop = alternate(ROUNDS, ours(), tsx);
    return [
      row(SECTION, `cold generate --force, ${versions.length} versions vs json2ts (types only)`, cold.a, cold.b, "ms", { op: "≤", value: 0.4 }),
      row(SECTION, "no-op generate vs bare tsx start-up", noop.a, noop.b, "ms"),
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
