import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../../generator/common/package-root.ts";
import { checkFixture } from "../../support/compile-fixture.ts";

// messages.ts holds types only: its rows are compile rows (test/compile/runtime-messages.ts), checked here by tsc.
const FIXTURE = join(PACKAGE_ROOT, "test", "compile", "runtime-messages.ts");

describe("the message types", () => {
  const { diagnostics, markers, unmarked } = checkFixture(FIXTURE);

  it("every marked mistake is a compile error and every other row compiles", () => {
    expect(diagnostics).toBe("");
  });

  it("each marker stands for a mistake on its own line", () => {
    expect(markers.length).toBeGreaterThanOrEqual(8);
    expect(unmarked).toEqual(markers);
  });
});
