import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type tsType from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../generator/api.ts";
import { REAL_SCHEMA_DIR, tmpProject, type TmpProject } from "./support/tmp-project.ts";

/**
 * The oldest TypeScript the README promises, for each mode: 5.0 compiles a consumer of the default output
 * (`@ts-nocheck` bodies) and, with `typeCheckOutput`, every generated body, under the strict flags 5.0 knows
 * (isolatedDeclarations came in 5.5 and is held by the current one). typescript@5.0.4 is installed from the npm
 * registry into a temporary folder, as test/package.test.ts installs the tarball's dependencies: as a devDependency
 * alias it would take over node_modules/.bin/tsc.
 */
const RELEASES = ["2026-07-28", "2025-11-25", "2025-03-26", "2024-11-05"];

let ts: typeof tsType;
let project: TmpProject;
let install: string;
beforeAll(async () => {
  install = mkdtempSync(join(tmpdir(), "mcp-bindgen-ts50-install-"));
  const npm = spawnSync(
    "npm",
    ["install", "--prefix", install, "--no-save", "--prefer-offline", "--no-audit", "--no-fund", "typescript@5.0.4"],
    {
      encoding: "utf8",
      timeout: 240_000,
    },
  );
  expect(npm.status, npm.stderr).toBe(0);
  ts = createRequire(join(install, "package.json"))("typescript") as typeof tsType;
  project = tmpProject("mcp-bindgen-ts50-");
  for (const v of RELEASES) project.putSchema(v, readFileSync(join(REAL_SCHEMA_DIR, v, "schema.json")));
  const config = join(project.root, "mcp-bindgen.config.json");
  writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, "utf8")), typeCheckOutput: true }));
  await generate({ cwd: project.root });
  writeFileSync(
    join(project.root, "consumer.ts"),
    `import { v2026_07_28 as mcp, request } from "./generated/index.js";
import { createServerDispatcher } from "./generated/2025-03-26/index.js";
export const msg = mcp.request("tools/call", { name: "weather", arguments: {} }, { id: 1, clientCapabilities: {} });
export const legacy = request("ping", {}, { id: 2 });
export const dispatcher = createServerDispatcher({ ping: () => ({}) });
// @ts-expect-error: no such method
mcp.request("tools/cal", { name: "x" }, { id: 3, clientCapabilities: {} });
// createMcpServer's results, inferred per handler and held to each release (emit/answers.ts, runtime/server/mcp-server.ts)
import { createMcpServer } from "./generated/index.js";
import { MCP_RELEASE as legacyRelease } from "./generated/2025-11-25/index.js";
const server = createMcpServer([mcp.MCP_RELEASE, legacyRelease], { info: { name: "s", version: "1" } });
server.tool(
  { name: "city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  ({ city }, ctx) => (ctx.era === "stateless" ? Promise.resolve({ content: [] }) : { content: [{ type: "text", text: city }] }),
);
// @ts-expect-error: a content block no release knows
server.tool({ name: "bad" }, async () => ({ content: [{ type: "txt", text: "x" }] }));
// @ts-expect-error: an input_required result is no result a 2025 session can carry (named at the handler)
server.tool({ name: "ask" }, (_args, ctx) => (ctx.era === "stateless" ? ctx.raw.context.inputRequired({}) : { content: [] }));
`,
  );
}, 600_000);
afterAll(() => {
  project.cleanup();
  rmSync(install, { recursive: true, force: true });
});

function diagnostics(options: tsType.CompilerOptions): string[] {
  const program = ts.createProgram({ rootNames: [join(project.root, "consumer.ts")], options });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}

describe("TypeScript 5.0", () => {
  it("is the version loaded", () => {
    expect(ts.version).toBe("5.0.4");
  });

  it("compiles every generated body (typeCheckOutput) and a consumer, under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess and verbatimModuleSyntax", () => {
    expect(readFileSync(join(project.paths.outDir, "runtime", "core", "dispatcher.ts"), "utf8")).not.toContain(
      "@ts-nocheck",
    );
    expect(
      diagnostics({
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        verbatimModuleSyntax: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ["lib.es2022.d.ts"],
        types: [],
      }),
    ).toEqual([]);
  });
});
