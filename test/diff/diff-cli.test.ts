import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { main } from "../../generator/cli.ts";
import type { DiffReport } from "../../generator/diff/index.ts";
import { REAL_SCHEMA_DIR } from "../support/tmp-project.ts";

const FIXTURES = new URL("../fixtures/diff/", import.meta.url).pathname;
const BASE = join(FIXTURES, "base.json");
const NEXT = join(FIXTURES, "next.json");
const work = mkdtempSync(join(tmpdir(), "mcp-bindgen-diff-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs the CLI in this process and captures what it prints. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((out += String(chunk)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((err += String(chunk)), true));
  try {
    return { code: await main(args), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

/** A copy of the base schema with one change: a new required field in the tools/call result (breaks servers only). */
function serverOnlyBreak(): string {
  const doc = JSON.parse(readFileSync(BASE, "utf8"));
  doc.definitions.CallToolResult.properties.structured = { type: "object" };
  doc.definitions.CallToolResult.required.push("structured");
  const file = join(work, "server-break.json");
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe("mcp-bindgen diff", () => {
  it("prints the golden Markdown for the synthetic pair", async () => {
    const { code, out } = await run("diff", BASE, NEXT);
    expect(code).toBe(0);
    expect(out).toBe(readFileSync(join(FIXTURES, "golden.md"), "utf8"));
  });

  it("prints the same data as JSON, with a version taken from each file name", async () => {
    const { code, out } = await run("diff", BASE, NEXT, "--format", "json");
    expect(code).toBe(0);
    const report = JSON.parse(out) as DiffReport;
    expect([report.old.version, report.new.version]).toEqual(["base", "next"]);
    expect(report.summary.total).toBe(report.changes.length);
    expect(report.summary.breaking).toEqual({ client: 3, server: 3 });
    expect(report.changes.find((c) => c.id === "definition-renamed")).toMatchObject({
      before: "TextContent",
      after: "TextBlock",
    });
  });

  it("exits 1 with --fail-on breaking only when the chosen side breaks", async () => {
    const file = serverOnlyBreak();
    expect((await run("diff", BASE, file, "--fail-on", "breaking")).code).toBe(1);
    expect((await run("diff", BASE, file, "--fail-on", "breaking", "--side", "server")).code).toBe(1);
    const client = await run("diff", BASE, file, "--fail-on", "breaking", "--side", "client", "--format", "json");
    expect(client.code).toBe(0);
    expect((JSON.parse(client.out) as DiffReport).changes.map((c) => c.id)).toEqual(["property-added"]);
  });

  it("exits 1 with --fail-on any when anything changed, 0 when nothing did", async () => {
    expect((await run("diff", BASE, BASE, "--fail-on", "any")).code).toBe(0);
    expect((await run("diff", BASE, BASE, "--fail-on", "breaking")).code).toBe(0);
    const same = await run("diff", BASE, BASE);
    expect(same.out).toContain("No changes.");
    const added = JSON.parse(readFileSync(BASE, "utf8"));
    added.definitions.Tool.properties.title = { type: "string" };
    const file = join(work, "optional.json");
    writeFileSync(file, JSON.stringify(added));
    expect((await run("diff", BASE, file, "--fail-on", "breaking")).code).toBe(0);
    expect((await run("diff", BASE, file, "--fail-on", "any")).code).toBe(1);
  });

  it("--breaking prints only the breaking changes, opening with their count", async () => {
    const { code, out } = await run("diff", BASE, NEXT, "--breaking");
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines[2]).toMatch(/^\*\*6 breaking changes\*\* \(3 for clients, 3 for servers\)/);
    const changes = lines.filter((l) => l.startsWith("- "));
    expect(changes).toHaveLength(6);
    expect(changes.every((l) => l.includes("🔴"))).toBe(true);
    expect(out).not.toContain("<details>");
    const server = await run("diff", BASE, NEXT, "--breaking", "--side", "server");
    expect(server.out.split("\n").filter((l) => l.startsWith("- "))).toHaveLength(3);
  });

  it("exits 2 for an unknown release and names the known ones", async () => {
    const { code, err } = await run("diff", "2024-11-05", "2099-01-01");
    expect(code).toBe(2);
    expect(err).toContain('unknown release "2099-01-01"');
    expect(err).toContain("2026-07-28");
    expect(err).toContain("2024-11-05");
  });

  it("exits 1 for a schema path that does not exist, naming the file", async () => {
    const { code, err } = await run("diff", "2024-11-05", "./drafts/nope.json");
    expect(code).toBe(1);
    expect(err).toMatch(/drafts\/nope\.json: expected a readable schema file .*\(file not found\)/);
    // A bare file name is a path too, by its extension alone.
    const bare = await run("diff", "2024-11-05", "nope.json");
    expect(bare.code).toBe(1);
    expect(bare.err).toMatch(/nope\.json: expected a readable schema file .*\(file not found\)/);
  });

  it("diffs locked versions, and takes a schema path's version from its date folder", async () => {
    const json = await run("diff", "2025-03-26", "2025-06-18", "--format", "json");
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out) as DiffReport;
    expect(report.changes.filter((c) => c.id === "method-added").map((c) => c.subject)).toEqual(["elicitation/create"]);
    const byPath = await run(
      "diff",
      "2026-07-28",
      join(REAL_SCHEMA_DIR, "2026-07-28", "schema.json"),
      "--format",
      "json",
      "--fail-on",
      "any",
    );
    expect(byPath.code).toBe(0);
    expect((JSON.parse(byPath.out) as DiffReport).new.version).toBe("2026-07-28");
  });
});
