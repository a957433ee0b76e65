import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { alternate, timeSpawn } from "./measure.ts";
import { row, type BenchRow } from "./table.ts";

const SECTION = "generation";
const ROUNDS = 3;

/** Where the five schema files come from: MCP_SCHEMA_DIR, else the project's pulled copies. */
export function schemaSource(): string {
  const env = process.env["MCP_SCHEMA_DIR"];
  return env && env.trim() !== "" ? env : join(PACKAGE_ROOT, "node_modules", ".cache", "mcp-bindgen");
}

export const GENERATION_COMMANDS = [
  "node bin/mcp-bindgen.js generate --force --quiet --project <tmp>   (the package's bin on the compiled generator, as a user's install runs it and as the baselines run theirs; a fresh process each run, from a snapshot built with npm run build; all five versions; the previous round's output in place)",
  "node bin/mcp-bindgen.js generate --force --quiet --project <tmp>   (first run: <tmp>/generated removed before each round; json2ts's output folder emptied likewise)",
  "node bin/mcp-bindgen.js generate --quiet --project <tmp>           (again, nothing changed: the no-op path)",
  "node_modules/.bin/json2ts -i '<tmp>/in/*.json' -o <tmp>/out/ --unreachableDefinitions   (one process, types only)",
  "node_modules/.bin/openapi-typescript   (one process, types only; each schema's definitions as OpenAPI 3.1 components.schemas, five APIs in one redocly.yaml)",
  "node -e ''                                               (Node alone: the floor of any run)",
];

/**
 * A snapshot of the generator (bin/, generator/, package.json, node_modules linked), compiled to
 * dist/ as the published package is, to run from: every round measures the same code even while
 * generator/ is being edited, the no-op rounds really find nothing changed, and the bin starts
 * the compiled generator as on a user's machine (no tsx).
 */
function snapshotGenerator(root: string): string {
  const dir = join(root, "snapshot");
  cpSync(join(PACKAGE_ROOT, "bin"), join(dir, "bin"), { recursive: true });
  cpSync(join(PACKAGE_ROOT, "generator"), join(dir, "generator"), { recursive: true });
  cpSync(join(PACKAGE_ROOT, "package.json"), join(dir, "package.json"));
  for (const file of ["lock.json", "facts.json"]) cpSync(join(PACKAGE_ROOT, "schema", file), join(dir, "schema", file));
  for (const file of ["tsconfig.json", "tsconfig.build.json"]) cpSync(join(PACKAGE_ROOT, file), join(dir, file));
  cpSync(join(PACKAGE_ROOT, "scripts"), join(dir, "scripts"), { recursive: true });
  symlinkSync(join(PACKAGE_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  timeSpawn(process.execPath, ["--import", "tsx", join(dir, "scripts", "build.ts")], { cwd: dir });
  return dir;
}

/**
 * The same schema as an OpenAPI 3.1 document: its definitions become `components.schemas` and
 * every `$ref` is pointed there, which is how openapi-typescript users would feed it MCP's schema.
 */
function asOpenApi(version: string, schemaFile: string): string {
  const schema = JSON.parse(readFileSync(schemaFile, "utf8")) as { definitions?: object; $defs?: object };
  const document = {
    openapi: "3.1.0",
    info: { title: `MCP ${version}`, version },
    paths: {},
    components: { schemas: schema.$defs ?? schema.definitions ?? {} },
  };
  return JSON.stringify(document).replace(/"#\/(\$defs|definitions)\//g, '"#/components/schemas/');
}

/** One redocly.yaml naming every version, so openapi-typescript generates them all in one process. */
function redoclyConfig(versions: readonly string[]): string {
  return (
    [
      "apis:",
      ...versions.flatMap((v) => [
        `  "${v}":`,
        `    root: ./openapi/${v}.json`,
        "    x-openapi-ts:",
        `      output: ./openapi-out/${v}.ts`,
      ]),
    ].join("\n") + "\n"
  );
}

/**
 * Cold generation against json-schema-to-typescript on the same five files, in a throwaway
 * project so the repository's generated/ is untouched. Each side is one fresh process.
 */
export function benchGeneration(): BenchRow[] {
  const root = mkdtempSync(join(tmpdir(), "mcp-bindgen-bench-"));
  try {
    // A user's project: its config (every release the package knows) and the schemas in its cache.
    const cacheDir = join(root, "node_modules", ".cache", "mcp-bindgen");
    mkdirSync(join(root, "in"), { recursive: true });
    mkdirSync(join(root, "out"), { recursive: true });
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "bench-app", private: true }));
    writeFileSync(join(root, "mcp-bindgen.config.json"), JSON.stringify({ out: "generated" }));
    const versions = Object.keys(
      (JSON.parse(readFileSync(join(PACKAGE_ROOT, "schema", "lock.json"), "utf8")) as { versions: object }).versions,
    );
    mkdirSync(join(root, "openapi"), { recursive: true });
    for (const v of versions) {
      cpSync(join(schemaSource(), v, "schema.json"), join(cacheDir, v, "schema.json"));
      cpSync(join(schemaSource(), v, "schema.json"), join(root, "in", `${v}.json`));
      writeFileSync(join(root, "openapi", `${v}.json`), asOpenApi(v, join(schemaSource(), v, "schema.json")));
    }
    writeFileSync(join(root, "redocly.yaml"), redoclyConfig(versions));
    const env = { ...process.env, MCP_SCHEMA_DIR: "" };
    const generator = snapshotGenerator(root);
    const ours =
      (...extra: string[]) =>
      () =>
        timeSpawn(
          process.execPath,
          [join(generator, "bin", "mcp-bindgen.js"), "generate", "--quiet", "--project", root, ...extra],
          { cwd: generator, env },
        );
    const json2ts = () =>
      timeSpawn(
        join(PACKAGE_ROOT, "node_modules", ".bin", "json2ts"),
        ["-i", join(root, "in", "*.json"), "-o", join(root, "out") + "/", "--unreachableDefinitions"],
        {
          cwd: root,
        },
      );
    const openapi = () =>
      timeSpawn(join(PACKAGE_ROOT, "node_modules", ".bin", "openapi-typescript"), [], { cwd: root });
    const bareNode = () => timeSpawn(process.execPath, ["-e", ""], { cwd: PACKAGE_ROOT });
    const [cold, coldJson2ts, coldOpenapi] = alternate(ROUNDS, ours("--force"), json2ts, openapi) as [
      number,
      number,
      number,
    ];
    // A user's very first run: no earlier output folder.
    const firstRun = () => {
      rmSync(join(root, "generated"), { recursive: true, force: true });
      return ours("--force")();
    };
    const json2tsFresh = () => {
      rmSync(join(root, "out"), { recursive: true, force: true });
      mkdirSync(join(root, "out"));
      return json2ts();
    };
    const [first, firstJson2ts] = alternate(ROUNDS, firstRun, json2tsFresh) as [number, number];
    const [noop, bareNodeMs] = alternate(ROUNDS, ours(), bareNode) as [number, number];
    return [
      row(
        SECTION,
        `cold generate --force, ${versions.length} versions vs json2ts (types only)`,
        cold,
        coldJson2ts,
        "ms",
        { op: "≤", value: 1.5 },
      ),
      row(
        SECTION,
        `cold generate --force, ${versions.length} versions vs openapi-typescript (types only)`,
        cold,
        coldOpenapi,
        "ms",
      ),
      row(SECTION, `first run (no output yet) vs json2ts into an empty folder`, first, firstJson2ts, "ms", {
        op: "≤",
        value: 1.5,
      }),
      row(SECTION, "no-op generate vs bare node start-up", noop, bareNodeMs, "ms", { op: "<", value: 500, unit: "ms" }),
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
