import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixture, runMain, snapshotTree, tmpProject, type TmpProject } from "../support/tmp-project.ts";

/**
 * `generate` owns only what it wrote: it writes into a missing or empty folder or one its stamps describe, replaces
 * only the files those stamps list, and refuses anything else (exit 2) whatever --force says. Each refusal leaves every
 * byte of the user's where it was; each user file inside a generated folder outlives every run.
 */
const V = "2031-01-01";
const W = "2031-02-01";
let project: TmpProject;

beforeEach(() => {
  project = tmpProject("mcp-bindgen-own-");
  project.putSchema(V, fixture("legacy-minimal.json"));
});
afterEach(() => project.cleanup());

const run = (...args: string[]) => runMain(args, project.root);
const setOut = (out: string) =>
  writeFileSync(join(project.root, "mcp-bindgen.config.json"), JSON.stringify({ out, releases: project.releases() }));
function put(files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(project.root, path)), { recursive: true });
    writeFileSync(join(project.root, path), content);
  }
}

describe("a folder that is not mcp-bindgen's is refused, with or without --force, and left byte for byte", () => {
  it.each([
    [
      "the app's src",
      "src",
      { "src/app/main.ts": "console.log('app');\n", "src/index.ts": "export * from './app/main.js';\n" },
      /files mcp-bindgen did not write: app\/, index\.ts/,
    ],
    [
      "a folder of someone else's files",
      "vendor/lib",
      { "vendor/lib/a.js": "a\n", "vendor/lib/b/c.js": "c\n" },
      /files mcp-bindgen did not write: a\.js, b\//,
    ],
    [
      "a package's folder",
      "packages/app",
      { "packages/app/package.json": "{}\n" },
      /the folder of a package or repository \(it holds package\.json\)/,
    ],
    [
      "another project's folder",
      "tools",
      { "tools/mcp-bindgen.config.json": '{ "out": "x" }\n', "tools/x.ts": "" },
      /it holds mcp-bindgen\.config\.json/,
    ],
    ["a repository", "sub", { "sub/.git/HEAD": "ref: refs/heads/main\n" }, /it holds \.git/],
    [
      "a file",
      "notes.txt",
      { "notes.txt": "mine\n" },
      /expected a folder for the generated bindings \(it is not a folder/,
    ],
  ])("%s", async (_name, out, files, says) => {
    put(files);
    setOut(out);
    const before = snapshotTree(project.root);
    for (const args of [["generate"], ["generate", "--force"], ["generate", "--check"]]) {
      const r = await run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(join(project.root, out));
      expect(r.stderr).toMatch(says);
      expect(r.stderr.trim().split("\n"), r.stderr).toHaveLength(1);
    }
    if (out !== "notes.txt")
      expect((await run("generate")).stderr).toMatch(
        /never replaces what it did not write, with or without --force: set "out" .* to a new folder/,
      );
    expect(snapshotTree(project.root)).toEqual(before);
  });

  it("init --out names such a folder: refused there already (exit 2), nothing written", async () => {
    put({ "src/app/main.ts": "console.log('app');\n" });
    const before = snapshotTree(project.root);
    const r = await run("init", "--out", "src", "--force");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${join(project.root, "src")}: expected an empty folder or one an earlier "mcp-bindgen generate" wrote`,
    );
    expect(snapshotTree(project.root)).toEqual(before);
  });

  it("a long list of foreign files is cut to a few names", async () => {
    put(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${String(i).padStart(2, "0")}.ts`, ""])));
    setOut("src");
    expect((await run("generate")).stderr).toContain("f00.ts, f01.ts, f02.ts, f03.ts, f04.ts and more");
  });

  it.each([".git", ".git/mcp", ".GIT/x", "."])(
    "out %s: refused by the path alone, in the config (exit 1) and on the command line (exit 2)",
    async (out) => {
      put({ ".git/HEAD": "ref: refs/heads/main\n", ".git/config": "[core]\n" });
      setOut("generated");
      const before = snapshotTree(project.root);
      setOut(out);
      const config = await run("generate", "--force");
      expect(config.code).toBe(1);
      expect(config.stderr).toMatch(/#\/out: expected a folder (outside \.git|inside the project)/);
      setOut("generated");
      const flag = await run("generate", "--force", "--out", out);
      expect(flag.code).toBe(2);
      expect(flag.stderr).toMatch(/expected a folder (outside \.git|inside the project)/);
      setOut("generated");
      expect(snapshotTree(project.root)).toEqual(before);
    },
  );

  it("an empty folder is taken, and is the tool's from then on", async () => {
    mkdirSync(join(project.root, "src", "mcp"), { recursive: true });
    setOut("src/mcp");
    expect(await run("generate", "--quiet")).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(join(project.root, "src", "mcp", V, "index.ts"), "utf8")).toContain("PROTOCOL_VERSION");
  });
});

describe("a user's files inside a generated folder", () => {
  const USER = {
    "generated/package.json": '{ "type": "module" }\n',
    [`generated/${V}/notes.md`]: "why we pinned this release\n",
    "generated/custom/empty/.keep": "",
    "generated/README": "ours\n",
  };
  const userBytes = () =>
    Object.fromEntries(Object.keys(USER).map((path) => [path, readFileSync(join(project.root, path), "utf8")]));

  it("are kept through a forced re-render and reported; the stamps list only what generate wrote", async () => {
    expect((await run("generate", "--quiet")).code).toBe(0);
    put(USER);
    const r = await run("generate", "--force");
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toContain(
      `kept 4 entries in ${project.paths.outDir} that mcp-bindgen did not write: ${V}/notes.md, README, custom/, package.json`,
    );
    expect(userBytes()).toEqual(USER);
    const report = JSON.parse((await run("generate", "--force", "--json")).stdout) as { kept: string[] };
    expect(report.kept).toEqual([`${V}/notes.md`, "README", "custom/", "package.json"]);
    expect(userBytes()).toEqual(USER);
    // generate --check does not count them as differences.
    expect(await run("generate", "--check")).toMatchObject({ code: 0, stderr: "" });
  });

  it("outlive their release folder: dropping the release removes its files, not the user's", async () => {
    project.putSchema(W, fixture("legacy-minimal.json"));
    expect((await run("generate", "--quiet")).code).toBe(0);
    put({ [`generated/${W}/mine.ts`]: "mine\n" });
    setOut("generated");
    writeFileSync(join(project.root, "mcp-bindgen.config.json"), JSON.stringify({ out: "generated", releases: [V] }));
    expect((await run("generate", "--quiet")).code).toBe(0);
    expect(Object.keys(snapshotTree(join(project.paths.outDir, W))!)).toEqual(["mine.ts"]);
    // The release back: its folder is generated around the user's file.
    writeFileSync(
      join(project.root, "mcp-bindgen.config.json"),
      JSON.stringify({ out: "generated", releases: [V, W] }),
    );
    expect((await run("generate", "--quiet")).code).toBe(0);
    expect(readFileSync(join(project.paths.outDir, W, "mine.ts"), "utf8")).toBe("mine\n");
    expect(Object.keys(snapshotTree(join(project.paths.outDir, W))!)).toContain("index.ts");
  });

  it("where the run would write a file of the same name: refused (exit 2), nothing changed", async () => {
    project.putSchema(W, fixture("legacy-minimal.json"));
    writeFileSync(join(project.root, "mcp-bindgen.config.json"), JSON.stringify({ out: "generated", releases: [V] }));
    expect((await run("generate", "--quiet")).code).toBe(0);
    put({ [`generated/${W}/index.ts`]: "my own index\n" });
    writeFileSync(
      join(project.root, "mcp-bindgen.config.json"),
      JSON.stringify({ out: "generated", releases: [V, W] }),
    );
    const before = snapshotTree(project.root);
    const r = await run("generate", "--force");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${join(project.paths.outDir, W, "index.ts")}: expected a file mcp-bindgen wrote, or nothing, where this run writes`,
    );
    expect(r.stderr).toContain(
      "was not written by mcp-bindgen and this run writes there; move it elsewhere, nothing was changed",
    );
    expect(snapshotTree(project.root)).toEqual(before);
  });

  it("a generated file whose stamp was lost is the user's: kept, or refused where the run writes", async () => {
    expect((await run("generate", "--quiet")).code).toBe(0);
    rmSync(join(project.paths.outDir, V, ".bindgen-stamp"));
    const before = snapshotTree(project.paths.outDir);
    expect((await run("generate", "--force")).code).toBe(2);
    expect(snapshotTree(project.paths.outDir)).toEqual(before);
  });
});

describe("generate --check exit codes", () => {
  it("0 fresh, 1 stale, 2 when it cannot check (no schemas, a bad config)", async () => {
    expect((await run("generate", "--quiet")).code).toBe(0);
    expect(await run("generate", "--check")).toMatchObject({ code: 0, stderr: "" });
    writeFileSync(join(project.paths.outDir, V, "errors.ts"), "stale\n");
    const stale = await run("generate", "--check");
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(new RegExp(`stale\\s+${V}/errors\\.ts`));
    rmSync(join(project.paths.outDir, V, "errors.ts"));
    expect(await run("generate", "--check")).toMatchObject({ code: 1 });
    rmSync(project.paths.outDir, { recursive: true });
    expect((await run("generate", "--check")).code).toBe(1);

    rmSync(project.paths.cacheDir, { recursive: true });
    const noSchemas = await run("generate", "--check");
    expect(noSchemas.code).toBe(2);
    expect(noSchemas.stderr).toContain(
      `cannot check: ${project.schemaFile(V)}: expected a cached copy verified against the lock`,
    );

    writeFileSync(join(project.root, "mcp-bindgen.config.json"), `{ "out": "generated", "typo": 1 }`);
    const badConfig = await run("generate", "--check");
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toContain("cannot check: ");
    expect(badConfig.stderr).toContain("#/typo: expected only the keys");
  });
});
