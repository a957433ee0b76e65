import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { formatDiagnostics, typecheck } from "../support/typecheck.ts";

const FIXTURE = join(PACKAGE_ROOT, "test", "compile", "envelope-errors.ts");

describe("envelope builders reject mistakes at compile time", () => {
  // One program under the strict flags; an unused @ts-expect-error is itself a diagnostic (TS2578).
  const diagnostics = typecheck([FIXTURE]);

  it("every marked mistake is a compile error and every unmarked use compiles", () => {
    expect(formatDiagnostics(diagnostics)).toBe("");
  });

  it("the fixture marks the mistakes the issue names", () => {
    const text = readFileSync(FIXTURE, "utf8");
    expect(text.split("@ts-expect-error").length - 1).toBeGreaterThanOrEqual(10);
    for (const needle of ['"tools/cal"', "nmae", 'modern.request("initialize"']) expect(text).toContain(needle);
  });
});
