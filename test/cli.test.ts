import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, plantMarkerTree, runCli, snapshotTree, tmpProject, type TmpProject } from "./support/tmp-project.ts";

/** The command-line contract: exit codes 0/1/2, usage errors that list what is known, nothing run on misuse. */
const V = "2031-01-01";
let project: TmpProject;
let marker: Record<string, string>;

beforeAll(() => {
  project = tmpProject("mcp-bindgen-cli-");
  project.putSchema(V, fixture("legacy-minimal.json"));
  project.putSchema("2031-02-01", fixture("legacy-minimal.json"));
  marker = plantMarkerTree(project.paths.generatedDir);
});
afterAll(() => project.cleanup());

const EXIT_CODES = /Exit codes: 0 success, 1 failure .*2 usage error/s;

describe("--help", () => {
  it.each([[[]], [["generate"]], [["pull"]], [["list"]]])("%j --help documents the exit codes and exits 0", (command) => {
    const r = runCli([...command, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, " ")).toMatch(EXIT_CODES);
    if (command.length > 0) expect(r.stdout).toContain("--project");
  });
});

describe("usage errors exit 2 and run nothing", () => {
  it("an unknown flag", () => {
    const r = runCli(["generate", "--project", project.root, "--frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown argument: frobnicate");
    expect(r.stderr).toContain(`Known versions: 2031-02-01, ${V}`);
    expect(r.stderr).toContain('Run "mcp-bindgen --help" for usage.');
    expect(snapshotTree(project.paths.generatedDir)).toEqual(marker);
  });

  it.each([["generate"], ["list"], ["pull"]])("%s with an unknown version lists the known ones", (command) => {
    const r = runCli([command, "--project", project.root, "--version", "1999-01-01"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`unknown version "1999-01-01" (known: 2031-02-01, ${V})`);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(snapshotTree(project.paths.generatedDir)).toEqual(marker);
  });

  it("no command, or an unknown one", () => {
    for (const args of [[], ["genrate"]]) {
      const r = runCli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^mcp-bindgen: /);
    }
  });
});

describe("success and failure", () => {
  it("list exits 0 with one row per locked version, and --json is the model summary", () => {
    const r = runCli(["list", "--project", project.root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${V}\\s+legacy\\s+\\d+`, "m"));
    const json = runCli(["list", "--project", project.root, "--json", "--version", V]);
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout) as { version: string; era: string; methods: { method: string; results: string[] }[] }[];
    expect(summary.map((s) => [s.version, s.era])).toEqual([[V, "legacy"]]);
    expect(summary[0]!.methods.find((m) => m.method === "tools/call")?.results).toEqual(["CallToolResult"]);
  });

  it("a failed check of the input exits 1", () => {
    const broken = tmpProject("mcp-bindgen-cli-");
    try {
      broken.putSchema(V, fixture("legacy-minimal.json"), { sha256: "f".repeat(64) });
      const r = runCli(["list", "--project", broken.root]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`expected sha256 ${"f".repeat(64)}`);
    } finally {
      broken.cleanup();
    }
  });
});
