import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../../generator/common/package-root.ts";
import { checkFixture } from "../../support/compile-fixture.ts";

// meta-keys.ts holds types only: its rows are compile rows, checked here by tsc. runtime-meta-keys.ts uses each check
// as a release does; meta-prefixes.ts holds the prefix rule to the spec's examples (a wrong verdict fails to compile).
const COMPILE = join(PACKAGE_ROOT, "test", "compile");

describe("the reserved _meta key checks", () => {
  const checks = checkFixture(join(COMPILE, "runtime-meta-keys.ts"));

  it("every marked mistake is a compile error and every other row compiles", () => {
    expect(checks.diagnostics).toBe("");
  });

  it("each marker stands for a mistake on its own line", () => {
    expect(checks.markers.length).toBeGreaterThanOrEqual(6);
    expect(checks.unmarked).toEqual(checks.markers);
  });

  it("the prefix rule gives the spec's verdict on each of its examples", () => {
    expect(checkFixture(join(COMPILE, "meta-prefixes.ts")).diagnostics).toBe("");
  });
});
