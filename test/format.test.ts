import { check } from "prettier";
import { beforeAll, describe, expect, it } from "vitest";
import { loadModels, render } from "../generator/generate.ts";
import { PRETTIER_OPTIONS } from "../generator/format.ts";
import { checkout } from "./support/checkout.ts";
import type { EmittedFile } from "../generator/emit/emitted.ts";

/**
 * The generator formats with prettier's babel-ts parser for speed; the output must be exactly
 * what prettier's typescript parser prints too, so "prettier-formatted" holds whichever one a
 * user's tooling runs.
 */
let files: EmittedFile[];

beforeAll(async () => {
  const env = process.env["MCP_SCHEMA_DIR"];
  // The newest release and the oldest: one of each era.
  const models = await loadModels(checkout.project.paths, { releases: ["2026-07-28", "2024-11-05"], ...(env ? { env } : {}) });
  files = await render(models);
}, 60_000);

describe("generated modules are prettier-formatted under the typescript parser", () => {
  it("renders modules to look at", () => {
    expect(files.length).toBeGreaterThan(10);
  });
  it("every module is unchanged by prettier --parser typescript", async () => {
    const unformatted: string[] = [];
    for (const f of files) if (!(await check(f.content, { ...PRETTIER_OPTIONS, parser: "typescript" }))) unformatted.push(f.path);
    expect(unformatted).toEqual([]);
  });
});
