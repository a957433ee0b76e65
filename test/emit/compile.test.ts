import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { NOCHECK_PRAGMA } from "../../generator/emit/output-file.ts";
import { formatDiagnostics, STRICT_OPTIONS, typecheck, type SourceEdit } from "../support/typecheck.ts";

const COMPILE_DIR = join(PACKAGE_ROOT, "test", "compile");
const fixtures = readdirSync(COMPILE_DIR)
  .filter((f) => f.endsWith(".ts"))
  .sort();

const roots = [join(PACKAGE_ROOT, "generated", "index.ts"), ...fixtures.map((f) => join(COMPILE_DIR, f))];

/** The generated files as tsc reads them here: without the pragma that tells a consumer's tsc to skip their bodies. */
const checked: SourceEdit = (file, text) =>
  file.includes("/generated/") ? text.replace(`\n${NOCHECK_PRAGMA}\n`, "\n") : text;

// One program over the whole generated tree and every fixture: the fixtures' @ts-expect-error
// lines fail as TS2578 ("unused") the moment a mistake stops being a compile error.
const diagnostics = typecheck(roots, STRICT_OPTIONS, checked);

describe("generated bindings under strict, exactOptionalPropertyTypes and noUncheckedIndexedAccess", () => {
  it("the generated tree compiles without a single diagnostic", () => {
    const inGenerated = diagnostics.filter((d) => d.file.includes("/generated/"));
    expect(formatDiagnostics(inGenerated)).toBe("");
  });

  it("a type error injected into a generated body is reported, so the clean compile above means something", () => {
    const runtime = join(PACKAGE_ROOT, "generated", "runtime", "core", "json.ts");
    const injected: SourceEdit = (file, text) =>
      checked(file, file === runtime ? `${text}export const probe: number = "not a number";\n` : text);
    const found = typecheck([join(PACKAGE_ROOT, "generated", "index.ts")], STRICT_OPTIONS, injected);
    expect(found.map((d) => [d.file, d.code])).toEqual([[runtime, 2322]]);
  });

  it.each(fixtures)("%s: every marked mistake is a compile error and everything else compiles", (fixture) => {
    const own = diagnostics.filter((d) => d.file.endsWith(`/test/compile/${fixture}`));
    expect(formatDiagnostics(own)).toBe("");
  });

  it("the typo fixtures mark at least seven mistakes each, so a clean compile means each was caught", () => {
    for (const fixture of fixtures.filter((f) => f.startsWith("typos-"))) {
      const markers = readFileSync(join(COMPILE_DIR, fixture), "utf8").split("@ts-expect-error").length - 1;
      expect(markers, fixture).toBeGreaterThanOrEqual(7);
    }
  });
});
