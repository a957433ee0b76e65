import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check as checkTree } from "../../generator/output/check.ts";
import { generate } from "../../generator/output/generate-output.ts";
import { unifiedDiff } from "../../generator/output/line-diff.ts";
import { REAL_SCHEMA_DIR, runCli, snapshotTree, tmpProject, type TmpProject } from "../support/tmp-project.ts";

/**
 * `generate --check`: the CI guard that generated/ matches what the generator would write now.
 * Rendering runs in this process where the printed output does not matter, to keep the file fast.
 */
// The header the CLI writes in a project without a generate script, so a tree generated here is
// byte for byte what `--check` expects, and only the files a test changes are stale.
const RENDER = { regenerateCommand: "npx mcp-bindgen generate" };
const LEGACY = "2024-11-05";
const MODERN = "2026-07-28";

let project: TmpProject;
const check = (...extra: string[]) => runCli(["generate", "--project", project.root, "--check", ...extra]);

beforeAll(() => {
  project = tmpProject("mcp-bindgen-check-");
  for (const v of [MODERN, LEGACY]) project.putSchema(v, readFileSync(join(REAL_SCHEMA_DIR, v, "schema.json")));
});
afterAll(() => project.cleanup());

describe("generate --check", () => {
  it("fails on a project that was never generated, listing every file as missing", async () => {
    const report = await checkTree(project.paths, { releases: project.releases() });
    expect(report.upToDate).toBe(false);
    expect(report.missing).toContain(`${MODERN}/types.ts`);
    expect(report.missing).toContain("index.ts");
    expect(report.missing).toHaveLength(report.files);
    expect(snapshotTree(project.paths.outDir)).toBeNull();
  });

  it("passes right after generate", async () => {
    await generate(project.paths, { releases: project.releases(), render: RENDER });
    expect(await checkTree(project.paths, { releases: project.releases(), render: RENDER })).toMatchObject({
      upToDate: true,
      stale: [],
      missing: [],
      extra: [],
    });
  });

  it("exits 1 listing stale and missing files with a unified diff, and writes nothing", () => {
    const dir = project.paths.outDir;
    const errors = join(dir, LEGACY, "errors.ts");
    writeFileSync(errors, readFileSync(errors, "utf8").replace("-32601", "-32699"));
    rmSync(join(dir, MODERN, "meta.ts"));
    appendFileSync(join(dir, "stray.ts"), "export {};\n");
    const before = snapshotTree(dir);

    const r = check();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/out of date/);
    expect(r.stdout).toMatch(new RegExp(`stale\\s+${LEGACY}/errors\\.ts`));
    expect(r.stdout).toMatch(new RegExp(`missing\\s+${MODERN}/meta\\.ts`));
    // A file generate did not write is the user's: generate keeps it, so it is no difference.
    expect(r.stdout).not.toContain("stray.ts");
    expect(r.stdout).toContain(`--- generated/${LEGACY}/errors.ts (on disk)`);
    expect(r.stdout).toMatch(/^-.*-32699/m);
    expect(r.stdout).toMatch(/^\+.*-32601/m);
    expect(r.stdout).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/m);
    expect(snapshotTree(dir)).toEqual(before);
  });

  it("reports the same as JSON, and a following generate repairs the tree", async () => {
    const report = await checkTree(project.paths, { releases: project.releases(), render: RENDER });
    expect(report).toMatchObject({
      upToDate: false,
      stale: [`${LEGACY}/errors.ts`],
      missing: [`${MODERN}/meta.ts`],
      extra: [],
      kept: ["stray.ts"],
    });
    // Extra: what the stamps list and this run would not write (generate removes it), here a release left out.
    const narrowed = await checkTree(project.paths, { releases: [MODERN], render: RENDER });
    expect(narrowed.extra).toContain(`${LEGACY}/index.ts`);
    expect(narrowed.extra).not.toContain("stray.ts");
    await generate(project.paths, { releases: project.releases(), render: RENDER });
    expect(readFileSync(join(project.paths.outDir, "stray.ts"), "utf8")).toBe("export {};\n");
    expect((await checkTree(project.paths, { releases: project.releases(), render: RENDER })).upToDate).toBe(true);
  });

  it("caps the diff of a file rewritten wholesale", () => {
    const old = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n");
    const lines = unifiedDiff(old, old.replaceAll("line", "row"), "a", "b", 40);
    expect(lines.length).toBeLessThanOrEqual(41);
    expect(lines.join("\n")).toMatch(/too many differences|diff cut at 40 lines/);
  });
});
