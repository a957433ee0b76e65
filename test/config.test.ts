import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixture, runMain, snapshotTree, tmpProject, type TmpProject } from "./support/tmp-project.ts";

/** The config file, `init` and the offline `--check`, each through `main` in this process as the CLI runs them. */
const V = "2031-01-01";
let project: TmpProject;
beforeEach(() => {
  project = tmpProject("mcp-bindgen-config-");
  project.putSchema(V, fixture("legacy-minimal.json"));
});
afterEach(() => project.cleanup());

const configFile = () => join(project.root, "mcp-bindgen.config.json");
const writeConfig = (text: string) => writeFileSync(configFile(), text);

describe("a bad config: exit 1 naming the file and the key, nothing written", () => {
  it.each([
    ["an unknown key", `{ "out": "generated", "outDir": "src" }`, "#/outDir: expected only the keys $schema, out, releases, importExtension, examples"],
    [
      "an unknown release",
      `{ "out": "generated", "releases": ["${V}", "1999-01-01"] }`,
      "#/releases/1: expected a release in the package's or the project's lock (unknown release \"1999-01-01\"",
    ],
    ["out inside node_modules", `{ "out": "node_modules/mcp" }`, "#/out: expected a folder outside node_modules"],
    ["out outside the project", `{ "out": "../elsewhere" }`, "#/out: expected a folder inside the project"],
    ["out is the project itself", `{ "out": "." }`, "#/out: expected a folder inside the project"],
    ["a bad importExtension", `{ "out": "generated", "importExtension": "ts" }`, '#/importExtension: expected one of ".js", ".ts" (got "ts")'],
    ["a bad typeCheckOutput", `{ "out": "generated", "typeCheckOutput": "yes" }`, '#/typeCheckOutput: expected true or false (got "yes")'],
    ["malformed JSON", `{ "out": "generated", }`, ": expected JSON text ("],
  ])("%s", async (_name, text, message) => {
    writeConfig(text);
    const before = snapshotTree(project.root);
    for (const command of ["generate", "list", "pull"]) {
      const r = await runMain([command], project.root);
      expect(r.code, command).toBe(1);
      expect(r.stderr).toContain(`mcp-bindgen: ${configFile()}${message}`);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(snapshotTree(project.root)).toEqual(before);
  });

  it("the same mistakes on the command line are usage errors (exit 2)", async () => {
    for (const args of [
      ["--out", "../elsewhere"],
      ["--out", "node_modules/x"],
      ["--release", "1999-01-01"],
      ["--import-extension", "ts"],
    ]) {
      const r = await runMain(["generate", ...args], project.root);
      expect(r.code, args.join(" ")).toBe(2);
    }
    expect(snapshotTree(project.paths.outDir)).toBeNull();
  });

  it("--out and --release override the config for one run", async () => {
    project.putSchema("2031-02-01", fixture("legacy-minimal.json"));
    const r = await runMain(["generate", "--quiet", "--out", "src/mcp", "-r", V], project.root);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(Object.keys(snapshotTree(join(project.root, "src", "mcp"))!).filter((p) => p.startsWith("2031"))).toEqual(expect.arrayContaining([`${V}/index.ts`]));
    expect(Object.keys(snapshotTree(join(project.root, "src", "mcp"))!).some((p) => p.startsWith("2031-02-01"))).toBe(false);
    expect(snapshotTree(project.paths.outDir)).toBeNull();
  });

  it("typeCheckOutput leaves the @ts-nocheck pragma out of every generated module, and regenerates what changed", async () => {
    const withPragma = () => Object.keys(snapshotTree(project.paths.outDir)!).filter((path) => readFileSync(join(project.paths.outDir, path), "utf8").includes("// @ts-nocheck"));
    writeConfig(`{ "out": "generated", "releases": ["${V}"] }`);
    expect(await runMain(["generate", "--quiet"], project.root)).toMatchObject({ code: 0, stderr: "" });
    expect(withPragma().length).toBeGreaterThan(10);
    writeConfig(`{ "out": "generated", "releases": ["${V}"], "typeCheckOutput": true }`);
    expect(await runMain(["generate", "--quiet"], project.root)).toMatchObject({ code: 0, stderr: "" });
    expect(withPragma()).toEqual([]);
  });

  it("is found from a subfolder", async () => {
    mkdirSync(join(project.root, "src", "deep"), { recursive: true });
    const r = await runMain(["list"], join(project.root, "src", "deep"));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${V}\\s+legacy`, "m"));
  });
});

describe("generate --check offline", () => {
  it("says how to get a schema that is not cached, downloads nothing", async () => {
    rmSync(project.paths.cacheDir, { recursive: true });
    const r = await runMain(["generate", "--check"], project.root);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${V} not in the cache; run "npx mcp-bindgen pull" once with network access, or set MCP_SCHEMA_DIR`);
    expect(snapshotTree(project.paths.cacheDir)).toBeNull();
  });

  it("works from MCP_SCHEMA_DIR, or from the cache", async () => {
    const shared = join(project.root, "shared");
    mkdirSync(join(shared, V), { recursive: true });
    writeFileSync(join(shared, V, "schema.json"), readFileSync(project.schemaFile(V)));
    expect((await runMain(["generate", "--quiet"], project.root)).code).toBe(0);
    rmSync(project.paths.cacheDir, { recursive: true });
    expect(await runMain(["generate", "--check"], project.root, { MCP_SCHEMA_DIR: shared })).toMatchObject({ code: 0, stderr: "" });
    expect(await runMain(["generate", "--check"], project.root)).toMatchObject({ code: 0, stderr: "" });
  });
});

describe("init", () => {
  let app: string;
  beforeEach(() => {
    app = mkdtempSync(join(tmpdir(), "mcp-bindgen-init-"));
    writeFileSync(join(app, "package.json"), `{\n\t"name": "app",\n\t"scripts": {\n\t\t"build": "tsc"\n\t}\n}\n`);
  });
  afterEach(() => rmSync(app, { recursive: true, force: true }));
  const init = (...args: string[]) => runMain(["init", ...args], app);
  const config = () => JSON.parse(readFileSync(join(app, "mcp-bindgen.config.json"), "utf8")) as Record<string, unknown>;
  const scripts = () => (JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

  it("writes the config and a generate script, keeping package.json's layout; a second run changes nothing", async () => {
    const r = await init("-r", "2026-07-28");
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toContain('added the script "generate"');
    expect(config()).toMatchObject({ out: "src/mcp", releases: ["2026-07-28"], importExtension: ".js" });
    expect(readFileSync(join(app, "package.json"), "utf8")).toBe(`{\n\t"name": "app",\n\t"scripts": {\n\t\t"build": "tsc",\n\t\t"generate": "mcp-bindgen generate"\n\t}\n}\n`);
    const before = snapshotTree(app);
    const again = await init("-r", "2026-07-28");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already set up, unchanged");
    expect(snapshotTree(app)).toEqual(before);
  });

  it("never overwrites a config that says something else without --force", async () => {
    await init("-r", "2026-07-28");
    const before = snapshotTree(app);
    const r = await init("--out", "lib/mcp");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--force");
    expect(snapshotTree(app)).toEqual(before);
    expect((await init("--out", "lib/mcp", "--force")).code).toBe(0);
    expect(config()["out"]).toBe("lib/mcp");
  });

  it("adds mcp:generate when generate is taken", async () => {
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", scripts: { generate: "prisma generate" } }, null, 2) + "\n");
    const r = await init();
    expect(r.stdout).toContain('added the script "mcp:generate"');
    expect(scripts()).toEqual({ generate: "prisma generate", "mcp:generate": "mcp-bindgen generate" });
  });

  it("proposes .ts imports from a tsconfig that allows them (comments and trailing commas included)", async () => {
    writeFileSync(join(app, "tsconfig.json"), `{\n  // Node's type stripping\n  "compilerOptions": { "allowImportingTsExtensions": true, /* "x": 1 */ "noEmit": true, },\n}\n`);
    const r = await init();
    expect(r.stdout).toContain("tsconfig.json sets allowImportingTsExtensions");
    expect(config()["importExtension"]).toBe(".ts");
  });

  it("an unknown release or an out outside the project is a usage error, and nothing is written", async () => {
    const before = snapshotTree(app);
    expect((await init("-r", "1999-01-01")).code).toBe(2);
    expect((await init("--out", "../x")).code).toBe(2);
    expect(snapshotTree(app)).toEqual(before);
  });

  it("a broken package.json fails before anything is written; no package.json at all is a failure (exit 1) naming where it looked", async () => {
    writeFileSync(join(app, "package.json"), "{bad");
    const before = snapshotTree(app);
    const r = await init();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(app, "package.json"));
    expect(snapshotTree(app)).toEqual(before);
    const bare = mkdtempSync(join(tmpdir(), "mcp-bindgen-bare-"));
    try {
      const none = await runMain(["init"], bare);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`${join(bare, "package.json")}: expected a package.json here or in a folder above`);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
