import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLockFile } from "../generator/load/lock.ts";
import { PACKAGE_LOCK } from "../generator/project/project.ts";
import { formatDiagnostics, typecheck } from "./support/typecheck.ts";
import { REAL_SCHEMA_DIR, runMain, tmpProject, type TmpProject } from "./support/tmp-project.ts";

/**
 * The README's "When a spec release lands" workflow, end to end, with a synthetic next release:
 * pull it into the lock, generate, diff it against the previous one. No code changes anywhere.
 */
const PREV = "2026-07-28";
const NEXT = "2027-01-01";

type Json = Record<string, unknown>;

/** The previous release plus one client request, `tools/frobnicate`, and its result. */
function nextRelease(): string {
  const schema = JSON.parse(readFileSync(join(REAL_SCHEMA_DIR, PREV, "schema.json"), "utf8")) as {
    $defs: Record<string, Json>;
  };
  const defs = schema.$defs;
  const request = structuredClone(defs["ListToolsRequest"]!) as {
    description: string;
    properties: Record<string, Json>;
  };
  request.description = "Asks the server to frobnicate.";
  request.properties["method"] = { const: "tools/frobnicate", type: "string" };
  request.properties["params"] = { $ref: "#/$defs/RequestParams" };
  const result = structuredClone(defs["ListToolsResult"]!) as {
    description: string;
    properties: Record<string, Json>;
    required?: string[];
  };
  result.description = "How many things were frobnicated.";
  delete result.properties["tools"];
  delete result.properties["nextCursor"];
  result.properties["frobs"] = { type: "integer" };
  result.required = [...(result.required ?? []).filter((k) => k !== "tools"), "frobs"];
  defs["FrobnicateRequest"] = request;
  defs["FrobnicateResult"] = result;
  (defs["ClientRequest"]!["anyOf"] as Json[]).push({ $ref: "#/$defs/FrobnicateRequest" });
  const serverResult = defs["ServerResult"]?.["anyOf"] as Json[] | undefined;
  serverResult?.push({ $ref: "#/$defs/FrobnicateResult" });
  return JSON.stringify(schema, null, 2) + "\n";
}

let project: TmpProject;
let drafts: string;
/** The command lines a user would type, run in process from the project folder. */
const cli = (...args: string[]) => runMain(args, project.root);

beforeAll(() => {
  project = tmpProject("mcp-bindgen-release-");
  // The project chooses every release the package knows; their schemas are already cached.
  for (const version of readLockFile(PACKAGE_LOCK).keys()) {
    project.putSchema(version, readFileSync(join(REAL_SCHEMA_DIR, version, "schema.json")), false);
  }
  // No "releases": the project generates every release its locks know, as the tool's checkout does.
  writeFileSync(join(project.root, "mcp-bindgen.config.json"), JSON.stringify({ out: "generated" }));
  drafts = join(project.root, "drafts");
  mkdirSync(join(drafts, NEXT), { recursive: true });
  writeFileSync(join(drafts, NEXT, "schema.json"), nextRelease());
});
afterAll(() => project.cleanup());

describe("a new spec release lands", () => {
  it("pull --update-lock records it in the lock", async () => {
    const r = await cli("pull", "--release", NEXT, "--from", drafts, "--update-lock");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(project.readLock()[NEXT]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The folder it came from, relative to the lock: no upstream URL is made up for a release not published yet.
    expect(project.readLock()[NEXT]?.url).toBe(`drafts/${NEXT}/schema.json`);
  });

  it("generate adds it to VERSIONS with its era detected from the schema", async () => {
    const r = await cli("generate");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${NEXT}\\s+modern\\s+\\d+ types\\s+22 methods`, "m"));
    const index = readFileSync(join(project.paths.outDir, "index.ts"), "utf8");
    expect(index).toMatch(new RegExp(`VERSIONS: readonly \\[\\s*"${NEXT}",\\s*"${PREV}"`));
    expect(index).toContain(`LATEST_VERSION = "${NEXT}"`);
    expect(readFileSync(join(project.paths.outDir, NEXT, "index.ts"), "utf8")).toContain('ERA = "modern"');
  });

  it("its new method is typed, and absent from the previous release", () => {
    const consumer = join(project.root, "consumer.ts");
    writeFileSync(
      consumer,
      `import { LATEST_VERSION, MODERN_VERSIONS, v${NEXT.replaceAll("-", "_")} as next, v${PREV.replaceAll("-", "_")} as prev } from "./generated/index.js";
export const latest: "${NEXT}" = LATEST_VERSION;
export const modern: readonly ("${NEXT}" | "${PREV}")[] = MODERN_VERSIONS;
export const frobs: next.ResultOf<"tools/frobnicate">["frobs"] = 3;
export const method: next.ClientRequestMethod = "tools/frobnicate";
// @ts-expect-error the previous release has no such method
export const missing: prev.ClientRequestMethod = "tools/frobnicate";
`,
    );
    const diagnostics = typecheck([consumer]);
    expect(formatDiagnostics(diagnostics)).toBe("");
  });

  it("a teammate's checkout without the cached copy pulls it from the folder the lock records", async () => {
    rmSync(join(project.paths.cacheDir, NEXT), { recursive: true, force: true });
    // --check never downloads, but the folder the lock records is no download: it reads the schema there.
    const r = await cli("generate", "--check");
    expect(r.code, r.stderr).toBe(0);
    rmSync(join(project.paths.cacheDir, NEXT), { recursive: true, force: true });
    const pulled = await cli("pull", "--release", NEXT);
    expect(pulled).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(join(project.paths.cacheDir, NEXT, "schema.json"), "utf8")).toBe(nextRelease());
  });

  it("diff shows what the release changed", async () => {
    const r = await cli("diff", PREV, NEXT);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("tools/frobnicate");
  });
});
