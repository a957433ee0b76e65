import { check } from "prettier";
import { beforeAll, describe, expect, it } from "vitest";
import { loadModels } from "../../generator/model/load-models.ts";
import { render } from "../../generator/output/generate-output.ts";
import { formatFiles, PRETTIER_OPTIONS } from "../../generator/output/format.ts";
import { checkout } from "../support/checkout.ts";
import type { EmittedFile } from "../../generator/emit/emitted.ts";

/**
 * The runtime is copied, not formatted: it must already be what prettier prints under the output's
 * options. And the generator formats with the `babel-ts` parser: the output must be what the
 * `typescript` parser prints too, so "prettier-formatted" holds whichever one a user's tooling runs.
 */
let files: EmittedFile[];

beforeAll(async () => {
  const env = process.env["MCP_SCHEMA_DIR"];
  files = await render(
    await loadModels(checkout.project.paths, { releases: checkout.releases, ...(env ? { env } : {}) }),
  );
}, 120_000);

describe("generated modules are prettier-formatted", () => {
  it("every module, the copied runtime included, is unchanged by prettier --parser typescript", async () => {
    expect(files.some((f) => f.path.startsWith("runtime/"))).toBe(true);
    const unformatted: string[] = [];
    for (const f of files)
      if (!(await check(f.content, { ...PRETTIER_OPTIONS, parser: "typescript" }))) unformatted.push(f.path);
    expect(unformatted).toEqual([]);
  });
});

describe("formatFiles", () => {
  it("returns every file in the order given, runtime copies untouched", async () => {
    const out = await formatFiles([
      { path: "b.ts", content: "const  b = {a:1}" },
      { path: "runtime/x.ts", content: "const  kept = 1", verbatim: true },
      { path: "a.ts", content: "export type A='x'|'y'" },
    ]);
    expect(out).toEqual([
      { path: "b.ts", content: "const b = { a: 1 };\n" },
      { path: "runtime/x.ts", content: "const  kept = 1" },
      { path: "a.ts", content: 'export type A = "x" | "y";\n' },
    ]);
  });
  it("a module prettier cannot parse is an error naming it", async () => {
    await expect(
      formatFiles([
        { path: "ok.ts", content: "const a = 1;" },
        { path: "2026-07-28/broken.ts", content: "export const = ;" },
      ]),
    ).rejects.toThrow(/^prettier could not format 2026-07-28\/broken\.ts: /);
  });
});
