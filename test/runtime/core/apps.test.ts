import { describe, expect, it } from "vitest";
import { uiResourceUriIn } from "../../../generator/runtime/core/apps.ts";

describe("MCP Apps", () => {
  const keys = { metaKey: "ui", resourceUriKey: "resourceUri", flatMetaKey: "ui/resourceUri" };
  it.each([
    { tool: { _meta: { ui: { resourceUri: "ui://a" } } }, want: "ui://a" },
    { tool: { _meta: { "ui/resourceUri": "ui://b" } }, want: "ui://b" },
    { tool: { _meta: { ui: { resourceUri: 5 }, "ui/resourceUri": "ui://c" } }, want: "ui://c" },
    { tool: {}, want: undefined },
    { tool: { _meta: { ui: { resourceUri: "ui://nested" }, "ui/resourceUri": "ui://flat" } }, want: "ui://nested" },
    { tool: { _meta: { ui: [{ resourceUri: "ui://d" }], "ui/resourceUri": "ui://e" } }, want: "ui://e" },
    { tool: { _meta: { "ui/resourceUri": 5 } }, want: undefined },
    { tool: { _meta: "ui://f" }, want: undefined },
  ])("uiResourceUriIn → $want", ({ tool, want }) => {
    expect(uiResourceUriIn(tool, keys)).toBe(want);
  });

  it("reads the keys it is given, not the extension's names", () => {
    const other = { metaKey: "app", resourceUriKey: "uri", flatMetaKey: "app.uri" };
    expect(uiResourceUriIn({ _meta: { app: { uri: "ui://x" } } }, other)).toBe("ui://x");
    expect(uiResourceUriIn({ _meta: { ui: { resourceUri: "ui://y" } } }, other)).toBeUndefined();
  });
});
