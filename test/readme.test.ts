// Every ```ts block of README.md compiles against a fresh generation, in a project laid out as the README says:
// the bindings in `mcp/` beside the snippet (imported as "./mcp/index.js" or "./mcp/<release>/index.js") and the
// programmatic API as "mcp-bindgen". A snippet can never name a helper the package does not ship.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { render } from "../generator/output/generate-output.ts";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { snapshotOf } from "../generator/tools/snapshot.ts";
import { toolSet } from "../generator/tools/tool-set.ts";
import { checkoutModels } from "./support/checkout.ts";
import { formatDiagnostics, STRICT_OPTIONS, typecheck } from "./support/typecheck.ts";
import { GENERATED_DIR } from "./support/test-tree.ts";

/** The ```ts blocks of a Markdown text, with the line each starts on. */
export function tsBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```ts") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== "```") end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join("\n") });
    i = end;
  }
  return blocks;
}

const blocks = tsBlocks(readFileSync(join(PACKAGE_ROOT, "README.md"), "utf8"));
const project = mkdtempSync(join(tmpdir(), "mcp-bindgen-readme-"));
cpSync(GENERATED_DIR, join(project, "mcp"), { recursive: true });
// The server the "Typed tools" snippets call and serve: a snapshot as `tools add` writes one (tools, a prompt, a
// resource template), rendered as `generate` renders it.
const weather = snapshotOf(
  "weather.json",
  "weather",
  "2026-07-28",
  [
    {
      name: "get-forecast",
      inputSchema: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer" } },
        required: ["city"],
      },
      outputSchema: { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] },
    },
  ],
  "/tools",
  {
    prompts: [{ name: "plan-trip", arguments: [{ name: "city", required: true }, { name: "days" }] }],
    resourceTemplates: [{ name: "City forecast", uriTemplate: "weather://forecast/{city}{?days}" }],
  },
);
for (const file of await render(await checkoutModels(), {}, (path) => path.startsWith("servers/"), [
  toolSet("weather.json", weather),
])) {
  mkdirSync(join(project, "mcp", "servers"), { recursive: true });
  writeFileSync(join(project, "mcp", file.path), file.content);
}
writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
const files = blocks.map((block) => {
  const file = join(project, `readme-line-${block.line}.ts`);
  // Each snippet is a module of its own, as in a user's file.
  writeFileSync(file, `${block.code}\nexport {};\n`);
  return file;
});
const diagnostics = typecheck(files, {
  ...STRICT_OPTIONS,
  types: ["node"],
  typeRoots: [join(PACKAGE_ROOT, "node_modules", "@types")],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  paths: {
    "mcp-bindgen": [join(PACKAGE_ROOT, "generator", "index.ts")],
    // The Trace context snippet's, and the opentelemetry extra's, one package, as the user's project has it installed.
    "@opentelemetry/api": [join(PACKAGE_ROOT, "node_modules", "@opentelemetry", "api", "build", "src", "index.d.ts")],
    // The optional redis part's one package, as the user's project would have it installed.
    ioredis: [join(PACKAGE_ROOT, "node_modules", "ioredis")],
  },
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("README.md's TypeScript blocks", () => {
  it("finds the blocks of each section that promises code (usage, API, server, client)", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(7);
  });

  it.each(blocks.map((block, i) => [block.line, files[i]!] as const))("the block at line %i compiles", (_, file) => {
    expect(formatDiagnostics(diagnostics.filter((d) => d.file === file))).toBe("");
  });
});

/** Lines a reader reads: not blank, not only a comment. */
function codeLines(code: string): string[] {
  return code.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("//"));
}

describe("README.md's server example", () => {
  const example = blocks.find((block) =>
    block.code.includes("createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE]"),
  );
  const consumer = (name: string) => readFileSync(join(PACKAGE_ROOT, "bench", "consumers", name), "utf8");

  it("is the server the type-check bench measures (bench/consumers/server-high.ts), up to serving it on node:http", () => {
    const served = codeLines(example!.code)
      .filter((line) => !line.includes("node:http") && !line.startsWith("createServer("))
      .map((line) => line.replace(", toNodeListener }", " }").replace("const handler", "export const handler"));
    const measured = codeLines(consumer("server-high.ts")).map((line) => line.replaceAll("../../generated/", "./mcp/"));
    expect(served).toEqual(measured);
  });

  it("is no longer than the same server on SDK v2 (bench/consumers/server-sdk.ts), counted alike", () => {
    expect(codeLines(example!.code).length).toBeLessThanOrEqual(codeLines(consumer("server-sdk.ts")).length);
  });
});
