import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import {
  fixture,
  plantMarkerTree,
  runCli,
  runMain,
  snapshotTree,
  tmpProject,
  type TmpProject,
} from "./support/tmp-project.ts";

/** The command-line contract: exit codes 0/1/2, usage errors that list what is known, nothing run on misuse. */
const V = "2031-01-01";
let project: TmpProject;
let marker: Record<string, string>;

beforeAll(() => {
  project = tmpProject("mcp-bindgen-cli-");
  project.putSchema(V, fixture("legacy-minimal.json"));
  project.putSchema("2031-02-01", fixture("legacy-minimal.json"));
  marker = plantMarkerTree(project.paths.outDir);
});
afterAll(() => project.cleanup());

const EXIT_CODES = /Exit codes: 0 success, 1 failure .*2 usage error/s;
const cli = (...args: string[]) => runMain(args, project.root);

describe("the real process (smoke)", () => {
  it("--help of every command documents the exit codes; --version prints the package's version", () => {
    for (const command of [[], ["init"], ["generate"], ["pull"], ["list"], ["diff"]]) {
      const r = runCli([...command, "--help"]);
      expect(r.code, command.join(" ")).toBe(0);
      expect(r.stdout.replace(/\s+/g, " ")).toMatch(EXIT_CODES);
      if (command.length > 0 && command[0] !== "diff") expect(r.stdout).toContain("--release");
      if (command[0] === "diff")
        expect(r.stdout.replace(/\s+/g, " ")).toContain(
          "--tools, --server Compare two server snapshots (mcp-tools/<name>.json): every change to its tools, prompts and resource templates",
        );
    }
    const version = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string })
      .version;
    expect(runCli(["--version"])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });
});

describe("usage errors exit 2 and run nothing", () => {
  it("an unknown flag", async () => {
    const r = await cli("generate", "--frobnicate");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Unknown argument: frobnicate");
    // The releases are listed where a release was wrong, not after any misspelt flag.
    expect(r.stderr).not.toContain("Known releases");
    expect(r.stderr).toContain('Run "mcp-bindgen --help" for usage.');
    expect(snapshotTree(project.paths.outDir)).toEqual(marker);
  });

  it.each([["generate"], ["list"], ["pull"]])("%s with an unknown release lists the known ones", async (command) => {
    const r = await cli(command, "--release", "1999-01-01");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`unknown release "1999-01-01" \\(known: 2031-02-01, ${V}, 2026-07-28`));
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(snapshotTree(project.paths.outDir)).toEqual(marker);
  });

  it("a --timeout that is not a positive number", async () => {
    for (const value of ["abc", "0", "-3"]) {
      const r = await cli("pull", "--timeout", value);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("--timeout: expected a positive number of seconds");
    }
  });

  it("-r is --release", async () => {
    const r = await cli("list", "-r", "1999-01-01");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown release "1999-01-01"');
  });

  it("no command, or an unknown one", async () => {
    for (const args of [[], ["genrate"]]) {
      const r = await cli(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(/^mcp-bindgen: /);
    }
  });
});

describe("success and failure", () => {
  it("list exits 0 with one row per chosen release, and --json is the model summary", async () => {
    const r = await cli("list");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${V}\\s+legacy\\s+\\d+`, "m"));
    expect(r.stdout.trim().split("\n")).toHaveLength(3);
    const json = await cli("list", "--json", "--release", V);
    expect(json.code).toBe(0);
    const summary = JSON.parse(json.stdout) as {
      version: string;
      era: string;
      methods: { method: string; results: string[] }[];
    }[];
    expect(summary.map((s) => [s.version, s.era])).toEqual([[V, "legacy"]]);
    expect(summary[0]!.methods.find((m) => m.method === "tools/call")?.results).toEqual(["CallToolResult"]);
  });

  it("a failed check of the input exits 1", async () => {
    const broken = tmpProject("mcp-bindgen-cli-");
    try {
      broken.putSchema(V, fixture("legacy-minimal.json"), { sha256: "f".repeat(64) });
      const r = await runMain(["list"], broken.root);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`expected sha256 ${"f".repeat(64)}`);
    } finally {
      broken.cleanup();
    }
  });
});
