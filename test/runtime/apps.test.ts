import { describe, expect, it } from "vitest";
import { uiResourceUriIn } from "../../generator/runtime/apps.ts";

describe("MCP Apps", () => {
  const keys = { metaKey: "ui", resourceUriKey: "resourceUri", flatMetaKey: "ui/resourceUri" };
  it.each([
    { tool: { _meta: { ui: { resourceUri: "ui://a" } } }, want: "ui://a" },
    { tool: { _meta: { "ui/resourceUri": "ui://b" } }, want: "ui://b" },
    { tool: { _meta: { ui: { resourceUri: 5 }, "ui/resourceUri": "ui://c" } }, want: "ui://c" },
    { tool: {}, want: undefined },
  ])("uiResourceUriIn → $want", ({ tool, want }) => {
    expect(uiResourceUriIn(tool, keys)).toBe(want);
  });
});
