import { describe, expect, it } from "vitest";
import { pickLegacyVersion, towardsModern } from "../../../generator/runtime/core/versions.ts";

describe("version choice", () => {
  const legacy = ["2025-11-25", "2025-06-18", "2024-11-05"];
  it.each([
    { supported: ["2024-11-05", "2025-06-18"], want: "2025-06-18" },
    { supported: [], want: "2025-11-25" },
    { supported: ["2026-07-28"], want: "2025-11-25" },
  ])("pickLegacyVersion($supported) is $want", ({ supported, want }) => {
    expect(pickLegacyVersion(legacy, supported)).toBe(want);
  });
  it.each([
    { version: "2026-07-28", want: true },
    { version: "2099-01-01", want: true },
    { version: "2025-06-18", want: false },
    { version: "2020-01-01", want: false },
    { version: "2025-07-01", want: false },
  ])("towardsModern($version) is $want", ({ version, want }) => {
    expect(towardsModern(version, legacy, ["2026-07-28"])).toBe(want);
  });

  it("with no legacy release generated, any version the project does not list is newer", () => {
    expect(towardsModern("2030-01-01", [], ["2026-07-28"])).toBe(true);
  });
});
