import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate as generateProject } from "../../generator/api.ts";
import { generate as generateTree, type GenerateReport } from "../../generator/output/generate-output.ts";
import { REAL_SCHEMA_DIR, runMain, snapshotTree, tmpProject, type TmpProject } from "../support/tmp-project.ts";

/**
 * Incremental generation, as a second `npm run generate` sees it (in process, through the
 * programmatic API the CLI calls): what it redoes, what it leaves alone, and that the result is
 * always what a full run would write.
 */
const OLD = "2024-11-05";
const NEW = "2026-07-28";

let project: TmpProject;

// The project's own cached schemas, whatever MCP_SCHEMA_DIR says (CI sets it): a folder named there is read and
// checked against the project's lock on every run, and this project re-seals a release.
const generate = (options: { force?: boolean; releases?: string[] } = {}): Promise<GenerateReport> =>
  generateProject({ cwd: project.root, schemaDir: "", ...options });

const statuses = (report: GenerateReport) => Object.fromEntries(report.versions.map((v) => [v.version, v.status]));

beforeAll(() => {
  project = tmpProject("mcp-bindgen-incremental-");
  for (const v of [NEW, OLD]) project.putSchema(v, readFileSync(join(REAL_SCHEMA_DIR, v, "schema.json")));
});
afterAll(() => project.cleanup());

describe("generate, run again", () => {
  it("renders every release the first time and records a stamp for each", async () => {
    const report = await generate();
    expect(statuses(report)).toEqual({ [NEW]: "generated", [OLD]: "generated" });
    expect(report.written).toBe(true);
    for (const v of [NEW, OLD]) {
      const stamp = JSON.parse(readFileSync(join(project.paths.outDir, v, ".bindgen-stamp"), "utf8"));
      expect(stamp.input).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.keys(stamp.files)).toContain("types.ts");
    }
    expect(report.versions.find((v) => v.version === OLD)).toMatchObject({ era: "legacy", types: 79, methods: 24 });
  });

  it("does nothing when nothing changed: every release reused, no file touched", async () => {
    const before = snapshotTree(project.paths.outDir);
    const report = await generate();
    expect(statuses(report)).toEqual({ [NEW]: "reused", [OLD]: "reused" });
    expect(report).toMatchObject({ root: "reused", written: false });
    expect(snapshotTree(project.paths.outDir)).toEqual(before);
  });

  it("still checks every schema against the lock when it could reuse the output", async () => {
    const lock = project.readLock();
    const good = lock[OLD]!.sha256;
    project.setLock({ ...lock, [OLD]: { ...lock[OLD]!, sha256: "0".repeat(64) } });
    const before = snapshotTree(project.paths.outDir);
    const r = await runMain(["generate"], project.root);
    project.setLock({ ...lock, [OLD]: { ...lock[OLD]!, sha256: good } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${OLD}/schema.json: expected sha256 ${"0".repeat(64)}`);
    expect(snapshotTree(project.paths.outDir)).toEqual(before);
  });

  it("prints one line per release and a summary, and nothing with --quiet", async () => {
    const plain = await runMain(["generate"], project.root);
    expect(plain.code).toBe(0);
    const lines = plain.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(`^${NEW}\\s+modern\\s+\\d+ types\\s+21 methods\\s+\\d+ error codes\\s+unchanged$`),
    );
    expect(lines[2]).toMatch(/up to date: 2 releases unchanged/);
    const quiet = await runMain(["generate", "--quiet"], project.root);
    expect(quiet).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("re-renders only the release whose generated file was edited by hand, restoring it", async () => {
    const types = join(project.paths.outDir, OLD, "types.ts");
    const original = readFileSync(types, "utf8");
    appendFileSync(types, "export type HandEdit = 1;\n");
    const report = await generate();
    expect(statuses(report)).toEqual({ [NEW]: "reused", [OLD]: "generated" });
    expect(report.root).toBe("generated");
    expect(readFileSync(types, "utf8")).toBe(original);
  });

  it("re-renders only the release whose schema changed", async () => {
    // Same definitions, different bytes: the schema hash changes, the output does not.
    const file = project.schemaFile(OLD);
    const reformatted = JSON.stringify(JSON.parse(readFileSync(file, "utf8")));
    const before = snapshotTree(project.paths.outDir)!;
    project.putSchema(OLD, reformatted);
    const report = await generate();
    expect(statuses(report)).toEqual({ [NEW]: "reused", [OLD]: "generated" });
    const after = snapshotTree(project.paths.outDir)!;
    for (const path of Object.keys(before).filter((p) => !p.endsWith(".bindgen-stamp")))
      expect(after[path], path).toBe(before[path]);
    expect(after[join(OLD, ".bindgen-stamp")]).not.toBe(before[join(OLD, ".bindgen-stamp")]);
  });

  it("re-renders every release when the facts change, and with --force", async () => {
    // The project's own copy of the facts, edited; everything else as the CLI renders it.
    const facts = project.paths.factsFile;
    writeFileSync(facts, JSON.stringify(JSON.parse(readFileSync(facts, "utf8")), null, 1));
    const withFacts = () =>
      generateTree(project.paths, {
        releases: project.releases(),
        render: { importExtension: ".js", regenerateCommand: "npx mcp-bindgen generate" },
      });
    expect(statuses(await withFacts())).toEqual({ [NEW]: "generated", [OLD]: "generated" });
    expect(statuses(await withFacts())).toEqual({ [NEW]: "reused", [OLD]: "reused" });
    expect(statuses(await generate())).toEqual({ [NEW]: "generated", [OLD]: "generated" });
    expect(statuses(await generate({ force: true }))).toEqual({ [NEW]: "generated", [OLD]: "generated" });
  });

  it("--release narrows one run to that release; the root index speaks of it alone", async () => {
    const report = await generate({ releases: [NEW] });
    expect(statuses(report)).toEqual({ [NEW]: "reused" });
    expect(existsSync(join(project.paths.outDir, OLD))).toBe(false);
    const index = readFileSync(join(project.paths.outDir, "index.ts"), "utf8");
    expect(index).toContain(`"${NEW}"`);
    expect(index).not.toContain(`"${OLD}"`);
    expect(statuses(await generate())).toEqual({ [NEW]: "reused", [OLD]: "generated" });
  });

  it("re-renders the root modules when a release leaves the config, and drops its folder", async () => {
    writeFileSync(join(project.root, "mcp-bindgen.config.json"), JSON.stringify({ out: "generated", releases: [NEW] }));
    const report = await generate();
    expect(statuses(report)).toEqual({ [NEW]: "reused" });
    expect(report.root).toBe("generated");
    expect(existsSync(join(project.paths.outDir, OLD))).toBe(false);
    const index = readFileSync(join(project.paths.outDir, "index.ts"), "utf8");
    expect(index).toContain(`"${NEW}"`);
    expect(index).not.toContain(`"${OLD}"`);
  });

  it("always leaves a tree that --check finds up to date", async () => {
    const r = await runMain(["generate", "--check"], project.root);
    expect(r.stdout).toMatch(/up to date/);
    expect(r.code).toBe(0);
  });
});
