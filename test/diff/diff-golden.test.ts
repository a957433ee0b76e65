import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { diffModels } from "../../generator/diff/index.ts";
import { renderMarkdown } from "../../generator/diff/render-markdown.ts";
import type { ProtocolModel } from "../../generator/model/protocol-model.ts";
import { loadModels } from "../../generator/model/load-models.ts";
import { checkout } from "../support/checkout.ts";

/**
 * The reviewer's report for two real release pairs, read by eye when it changes. To refresh after
 * an intended change: `npm run diff -- 2025-11-25 2026-07-28 > test/fixtures/diff/golden-2025-11-25_2026-07-28.md`
 * (and the same for 2025-06-18 2025-11-25), then read the diff of the file.
 */
let models: ProtocolModel[];
beforeAll(async () => {
  const env = process.env["MCP_SCHEMA_DIR"];
  models = await loadModels(checkout.project.paths, {
    releases: ["2025-06-18", "2025-11-25", "2026-07-28"],
    ...(env ? { env } : {}),
  });
});
const report = (a: string, b: string) =>
  diffModels(
    models.find((m) => m.version === a)!,
    models.find((m) => m.version === b)!,
  );
const golden = (a: string, b: string) =>
  readFileSync(new URL(`../fixtures/diff/golden-${a}_${b}.md`, import.meta.url), "utf8");

describe("the diff report on real releases", () => {
  it.each([
    ["2025-11-25", "2026-07-28"],
    ["2025-06-18", "2025-11-25"],
  ])("%s → %s matches its golden Markdown", (a, b) => {
    expect(renderMarkdown(report(a, b))).toBe(golden(a, b));
  });

  it("fits a release review: about 300 lines, and a breaking view short enough for a PR comment", () => {
    const full = renderMarkdown(report("2025-11-25", "2026-07-28"));
    expect(full.split("\n").length).toBeLessThanOrEqual(300);
    const breaking = renderMarkdown(report("2025-11-25", "2026-07-28"), { breakingOnly: true });
    expect(breaking.split("\n").length).toBeLessThanOrEqual(80);
    expect(breaking.split("\n")[2]).toMatch(/^\*\*\d+ breaking changes\*\*/);
    expect(breaking).not.toMatch(/^- 🟢🟢/m);
  });
});
