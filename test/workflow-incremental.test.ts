import { appendFileSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freezeGenerator, REAL_SCHEMA_DIR, runCli, snapshotTree, tmpProject, type TmpProject } from "./support/tmp-project.ts";

/**
 * Incremental generation, seen from the command line: what a second `npm run generate`
 * redoes, what it leaves alone, and that the result is always what a full run would write.
 */
const OLD = "2024-11-05";
const NEW = "2026-07-28";

interface Report {
  versions: { version: string; era: string; types: number; methods: number; status: "generated" | "reused" }[];
  root: "generated" | "reused";
  written: boolean;
  files: number;
}

let project: TmpProject;
let unfreeze: () => void;

function generate(...extra: string[]): Report {
  const r = runCli(["generate", "--project", project.root, "--json", ...extra]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

const statuses = (report: Report) => Object.fromEntries(report.versions.map((v) => [v.version, v.status]));

beforeAll(() => {
  // Edits to generator/ by others while this file runs would change the generator hash.
  unfreeze = freezeGenerator();
  project = tmpProject("mcp-bindgen-incremental-");
  for (const v of [NEW, OLD]) project.putSchema(v, readFileSync(join(REAL_SCHEMA_DIR, v, "schema.json")));
});
afterAll(() => {
  project.cleanup();
  unfreeze();
});

describe("generate, run again", () => {
  it("renders every version the first time and records a hash for each", () => {
    const report = generate();
    expect(statuses(report)).toEqual({ [NEW]: "generated", [OLD]: "generated" });
    expect(report.written).toBe(true);
    for (const v of [NEW, OLD]) {
      const stamp = JSON.parse(readFileSync(join(project.paths.generatedDir, v, ".bindgen-hash"), "utf8"));
      expect(stamp.input).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.keys(stamp.files)).toContain("types.ts");
    }
    expect(report.versions.find((v) => v.version === OLD)).toMatchObject({ era: "legacy", types: 79, methods: 24 });
  });

  it("does nothing when nothing changed: every version reused, no file touched", () => {
    const before = snapshotTree(project.paths.generatedDir);
    const report = generate();
    expect(statuses(report)).toEqual({ [NEW]: "reused", [OLD]: "reused" });
    expect(report).toMatchObject({ root: "reused", written: false });
    expect(snapshotTree(project.paths.generatedDir)).toEqual(before);
  });

  it("still checks every schema against the lock when it could reuse the output", () => {
    const lock = project.readLock();
    const good = lock[OLD]!.sha256;
    project.setLock({ ...lock, [OLD]: { ...lock[OLD]!, sha256: "0".repeat(64) } });
    const before = snapshotTree(project.paths.generatedDir);
    const r = runCli(["generate", "--project", project.root]);
    project.setLock({ ...lock, [OLD]: { ...lock[OLD]!, sha256: good } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${OLD}/schema.json: expected sha256 ${"0".repeat(64)}`);
    expect(snapshotTree(project.paths.generatedDir)).toEqual(before);
  });

  it("prints one line per version and a summary, and nothing with --quiet", () => {
    const plain = runCli(["generate", "--project", project.root]);
    expect(plain.code).toBe(0);
    const lines = plain.stdout.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^${NEW}\\s+modern\\s+\\d+ types\\s+21 methods\\s+\\d+ error codes\\s+unchanged$`));
    expect(lines[2]).toMatch(/up to date: 2 versions unchanged/);
    const quiet = runCli(["generate", "--project", project.root, "--quiet"]);
    expect(quiet).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("re-renders only the version whose generated file was edited by hand, restoring it", () => {
    const types = join(project.paths.generatedDir, OLD, "types.ts");
    const original = readFileSync(types, "utf8");
    appendFileSync(types, "export type HandEdit = 1;\n");
    const report = generate();
    expect(statuses(report)).toEqual({ [NEW]: "reused", [OLD]: "generated" });
    expect(report.root).toBe("generated");
    expect(readFileSync(types, "utf8")).toBe(original);
  });

  it("re-renders only the version whose schema changed", () => {
    // Same definitions, different bytes: the schema hash changes, the output does not.
    const file = project.schemaFile(OLD);
    const reformatted = JSON.stringify(JSON.parse(readFileSync(file, "utf8")));
    const before = snapshotTree(project.paths.generatedDir)!;
    project.putSchema(OLD, reformatted);
    const report = generate();
    expect(statuses(report)).toEqual({ [NEW]: "reused", [OLD]: "generated" });
    const after = snapshotTree(project.paths.generatedDir)!;
    for (const path of Object.keys(before).filter((p) => !p.endsWith(".bindgen-hash"))) expect(after[path], path).toBe(before[path]);
    expect(after[join(OLD, ".bindgen-hash")]).not.toBe(before[join(OLD, ".bindgen-hash")]);
  });

  it("re-renders every version when the facts change, and with --force", () => {
    const facts = project.paths.factsFile;
    writeFileSync(facts, JSON.stringify(JSON.parse(readFileSync(facts, "utf8")), null, 1));
    expect(statuses(generate())).toEqual({ [NEW]: "generated", [OLD]: "generated" });
    expect(statuses(generate())).toEqual({ [NEW]: "reused", [OLD]: "reused" });
    expect(statuses(generate("--force"))).toEqual({ [NEW]: "generated", [OLD]: "generated" });
  });

  it("--force --version re-renders only that release and keeps every other one", () => {
    const report = generate("--force", "--version", OLD);
    expect(statuses(report)).toEqual({ [NEW]: "reused", [OLD]: "generated" });
    expect(existsSync(join(project.paths.generatedDir, NEW, "index.ts"))).toBe(true);
    const index = readFileSync(join(project.paths.generatedDir, "index.ts"), "utf8");
    expect(index).toContain(`"${NEW}"`);
    expect(index).toContain(`"${OLD}"`);
  });

  it("re-renders the root modules when a version leaves the lock, and drops its folder", () => {
    const lock = project.readLock();
    delete lock[OLD];
    project.setLock(lock);
    const report = generate();
    expect(statuses(report)).toEqual({ [NEW]: "reused" });
    expect(report.root).toBe("generated");
    expect(existsSync(join(project.paths.generatedDir, OLD))).toBe(false);
    const index = readFileSync(join(project.paths.generatedDir, "index.ts"), "utf8");
    expect(index).toContain(`"${NEW}"`);
    expect(index).not.toContain(`"${OLD}"`);
  });

  it("always leaves a tree that --check finds up to date", () => {
    const r = runCli(["generate", "--project", project.root, "--check"]);
    expect(r.stdout).toMatch(/up to date/);
    expect(r.code).toBe(0);
  });
});
