import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../examples/server.ts";
import { generate } from "../generator/api.ts";
import { PACKAGE_ROOT, packageVersion } from "../generator/project/project.ts";
import { REAL_SCHEMA_DIR, snapshotTree } from "./support/tmp-project.ts";
import { formatDiagnostics, STRICT_OPTIONS, typecheck } from "./support/typecheck.ts";

/**
 * The package as a user gets it: `npm pack`, installed from the tarball into a fresh app (one
 * install from the npm registry, reused by every test here), then the README's commands. The
 * app never touches this checkout: it runs the installed bin, which runs the compiled JavaScript.
 */
const RELEASES = ["2026-07-28", "2025-11-25"];
let work: string;
let app: string;
let tarball: string;

function run(command: string, args: readonly string[], env: Record<string, string> = {}) {
  const r = spawnSync(command, args, {
    cwd: app,
    encoding: "utf8",
    env: { ...process.env, MCP_SCHEMA_DIR: REAL_SCHEMA_DIR, ...env },
    timeout: 240_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const bin = (...args: string[]) =>
  run(process.execPath, [join(app, "node_modules", "mcp-bindgen", "bin", "mcp-bindgen.js"), ...args]);
const installed = () => snapshotTree(join(app, "node_modules", "mcp-bindgen"));

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "mcp-bindgen-package-"));
  app = join(work, "app");
  mkdirSync(app);
  const pack = spawnSync("npm", ["pack", "--pack-destination", work], { cwd: PACKAGE_ROOT, encoding: "utf8" });
  expect(pack.status, pack.stderr).toBe(0);
  tarball = join(
    work,
    readdirSync(work).find((f) => f.endsWith(".tgz"))!,
  );
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "app", version: "1.0.0", private: true, type: "module" }, null, 2) + "\n",
  );
  const install = run("npm", ["install", "-D", tarball, "--prefer-offline", "--no-audit", "--no-fund"]);
  expect(install.code, install.stderr).toBe(0);
}, 600_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the packed package in a fresh app", () => {
  let before: Record<string, string> | null;

  it("--version prints the package's version; the install holds the compiled generator and no tsx", () => {
    expect(bin("--version")).toMatchObject({ code: 0, stdout: `${packageVersion()}\n` });
    expect(existsSync(join(app, "node_modules", "mcp-bindgen", "dist", "generator", "cli.js"))).toBe(true);
    expect(existsSync(join(app, "node_modules", "mcp-bindgen", "generator"))).toBe(false);
    expect(existsSync(join(app, "node_modules", "tsx"))).toBe(false);
  });

  it("ships the LICENSE (MIT, as package.json says), docs/ and the examples", () => {
    const pkg = join(app, "node_modules", "mcp-bindgen");
    expect(readFileSync(join(pkg, "LICENSE"), "utf8")).toMatch(/^MIT License\n/);
    expect((JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as { license: string }).license).toBe("MIT");
    expect(existsSync(join(pkg, "docs", "ARCHITECTURE.md"))).toBe(true);
    expect(readdirSync(join(pkg, "examples")).sort()).toEqual(expect.arrayContaining(["client.ts", "server.ts"]));
  });

  it("the API is ES modules with no top-level await: import() and require() both load it", () => {
    const names = "Object.keys(m).sort().join()";
    const imported = run(process.execPath, [
      "--input-type=module",
      "-e",
      `const m = await import("mcp-bindgen"); console.log(${names});`,
    ]);
    expect(imported).toMatchObject({
      code: 0,
      stdout: "BindgenError,CONFIG_FILE,UsageError,check,diff,generate,init,list,main,pull\n",
    });
    const required = run(process.execPath, ["-e", `const m = require("mcp-bindgen"); console.log(${names});`]);
    expect(required, required.stderr).toMatchObject({ code: 0, stdout: imported.stdout });
  });

  it("without a config, generate asks for init or --out (exit 2) and writes nothing", () => {
    const r = bin("generate");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mcp-bindgen init.*--out DIR/);
    expect(readdirSync(app).sort()).toEqual(["node_modules", "package-lock.json", "package.json"]);
  });

  it("init with two releases writes the config and a generate script", () => {
    const r = bin("init", "--out", "src/mcp", ...RELEASES.flatMap((v) => ["-r", v]));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const config = JSON.parse(readFileSync(join(app, "mcp-bindgen.config.json"), "utf8")) as Record<string, unknown>;
    expect(config).toEqual({
      $schema: "./node_modules/mcp-bindgen/config.schema.json",
      out: "src/mcp",
      releases: RELEASES,
      importExtension: ".js",
    });
    expect(existsSync(join(app, "node_modules", "mcp-bindgen", "config.schema.json"))).toBe(true);
    expect(
      (JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts,
    ).toEqual({ generate: "mcp-bindgen generate" });
  });

  it("npm run generate writes those two releases alone, and node_modules/mcp-bindgen is byte-identical after", () => {
    before = installed();
    const r = run("npm", ["run", "generate"]);
    expect(r.code, r.stderr).toBe(0);
    expect(
      readdirSync(join(app, "src", "mcp"))
        .filter((f) => !f.startsWith("."))
        .sort(),
    ).toEqual([...RELEASES].sort().concat(["index.ts", "runtime", "runtime.ts"]).sort());
    const index = readFileSync(join(app, "src", "mcp", "index.ts"), "utf8");
    expect(index).toMatch(/VERSIONS: readonly \["2026-07-28", "2025-11-25"\]/);
    expect(index).not.toContain("2024-11-05");
    expect(readFileSync(join(app, "src", "mcp", "2026-07-28", "index.ts"), "utf8")).toMatch(
      /^\/\/ .*run `npm run generate`/,
    );
    expect(installed()).toEqual(before);
    // The only other thing written in node_modules is the schema cache.
    expect(readdirSync(join(app, "node_modules", ".cache"))).toEqual(["mcp-bindgen"]);
  });

  it("the generator's sources (this checkout, under tsx) reuse what the installed bin, compiled from them, wrote", async () => {
    const report = await generate({ cwd: app });
    expect(report.versions.map((v) => v.status)).toEqual(["reused", "reused"]);
    expect(report.written).toBe(false);
  });

  it("the app compiles under nodenext (the bindings and the programmatic API) and runs under node", () => {
    writeFileSync(
      join(app, "src", "main.ts"),
      `import { v2026_07_28 as mcp, VERSIONS } from "./mcp/index.js";
import type { GenerateReport } from "mcp-bindgen";
const msg = mcp.request("tools/call", { name: "weather", arguments: { city: "Oslo" } }, { id: 1, clientCapabilities: {} });
export const report: GenerateReport | undefined = undefined;
console.log(JSON.stringify({ versions: VERSIONS, method: msg.method }));
`,
    );
    const options: ts.CompilerOptions = {
      ...STRICT_OPTIONS,
      allowImportingTsExtensions: false,
      noEmit: false,
      outDir: join(app, "build"),
      rootDir: join(app, "src"),
      types: ["node"],
      typeRoots: [join(PACKAGE_ROOT, "node_modules", "@types")],
    };
    const program = ts.createProgram([join(app, "src", "main.ts")], options);
    const emitted = program.emit();
    expect(formatDiagnostics(typecheck([join(app, "src", "main.ts")], options))).toBe("");
    expect(emitted.emitSkipped).toBe(false);
    const r = run(process.execPath, [join(app, "build", "main.js")]);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ versions: RELEASES, method: "tools/call" });
  });

  it("generate --check exits 0, then 1 after a hand edit", () => {
    expect(bin("generate", "--check")).toMatchObject({ code: 0 });
    const file = join(app, "src", "mcp", "2025-11-25", "errors.ts");
    writeFileSync(file, readFileSync(file, "utf8") + "export type HandEdit = 1;\n");
    const r = bin("generate", "--check");
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('src/mcp is out of date; run "npm run generate"');
    expect(r.stdout).toMatch(/stale\s+2025-11-25\/errors\.ts/);
  });

  it("--import-extension .ts output imports ./x.ts and compiles with allowImportingTsExtensions", () => {
    const r = bin("generate", "--out", "src/mcp-ts", "--import-extension", ".ts");
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(app, "src", "mcp-ts", "2026-07-28", "index.ts"), "utf8")).toMatch(/from "\.\/types\.ts"/);
    const entry = join(app, "src", "use-ts.ts");
    writeFileSync(
      entry,
      `import { v2026_07_28 as mcp } from "./mcp-ts/index.ts";\nexport const method: mcp.ClientRequestMethod = "tools/call";\n`,
    );
    expect(formatDiagnostics(typecheck([entry], { ...STRICT_OPTIONS, allowImportingTsExtensions: true }))).toBe("");
  });

  it("the conformance suite runs against a server with the preload the package ships, as the README says (Node 20 has no fs.globSync)", async () => {
    const server = await startServer({ port: 0 });
    try {
      // The suite as the README installs it (the same version is this checkout's devDependency), run from the app.
      const cli = join(PACKAGE_ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
      const args = ["--import", "./node_modules/mcp-bindgen/bin/conformance-node20.js", cli, "server"];
      const child = spawn(
        process.execPath,
        [...args, "--url", server.url, "--scenario", "tools-list", "-o", join(work, "conformance")],
        { cwd: app, stdio: ["ignore", "pipe", "pipe"] },
      );
      let output = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect({ code, output }).toMatchObject({ code: 0, output: expect.stringMatching(/Passed: (\d+)\/\1, 0 failed/) });
    } finally {
      await server.close();
    }
  }, 120_000);

  it("attw --profile esm-only and publint report no problems with the tarball", () => {
    const attw = spawnSync(
      process.execPath,
      [
        join(PACKAGE_ROOT, "node_modules", "@arethetypeswrong", "cli", "dist", "index.js"),
        tarball,
        "--profile",
        "esm-only",
        "--format",
        "json",
      ],
      { encoding: "utf8" },
    );
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
    // The esm-only profile ignores what CommonJS and node10 resolution would see.
    const problems = (JSON.parse(attw.stdout) as { analysis: { problems: { resolutionKind?: string }[] } }).analysis
      .problems;
    expect(problems.filter((p) => !["node10", "node16-cjs"].includes(p.resolutionKind ?? ""))).toEqual([]);
    const publint = spawnSync(
      process.execPath,
      [join(PACKAGE_ROOT, "node_modules", "publint", "src", "cli.js"), "run", tarball, "--strict"],
      { encoding: "utf8" },
    );
    expect(publint.status, publint.stdout + publint.stderr).toBe(0);
    expect(publint.stdout).toContain("All good!");
  });
});
