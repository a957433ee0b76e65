// The conformance tests read the suite's printed summary; these rows pin the formats they rely on.
import { describe, expect, it } from "vitest";
import { parseReport, passed, requiredScenarios } from "../support/conformance/run.ts";

const OUTPUT = `Running requirements 2026-07-28 (3 scenarios) against http://127.0.0.1:1/mcp

✓ tools-list: 4 passed, 0 failed
✗ caching: 7 passed, 1 failed
✗ request-metadata: 7 passed, 0 failed, 1 warnings
✗ tasks-lifecycle: 1 passed, 8 failed

Total: 19 passed, 9 failed

Not scored for 2026-07-28: 1 scenario(s) run, 1 failing. These do not affect conformance.
  ✗ tasks-lifecycle (extension)
`;

describe("parseReport", () => {
  const report = parseReport(OUTPUT, 1);

  it.each([
    ["tools-list", { passed: 4, failed: 0, warnings: 0 }, true],
    ["caching", { passed: 7, failed: 1, warnings: 0 }, false],
    ["request-metadata", { passed: 7, failed: 0, warnings: 1 }, false],
  ])("%s: %o, passed: %s", (scenario, counts, ok) => {
    const entry = report.scored.find((s) => s.scenario === scenario);
    expect(entry).toMatchObject(counts);
    expect(passed(entry!)).toBe(ok);
  });

  it("keeps not-scored scenarios out of the scored list, with their reason", () => {
    expect(report.scored.map((s) => s.scenario)).not.toContain("tasks-lifecycle");
    expect(report.notScored).toEqual([{ scenario: "tasks-lifecycle", reason: "extension", ok: false }]);
    expect(report.total).toEqual({ passed: 19, failed: 9 });
  });
});

describe("requiredScenarios", () => {
  it("reads each leg's list from the suite's requirements file", () => {
    expect(requiredScenarios("2026-07-28", "server")).toContain("server-stateless");
    expect(requiredScenarios("2026-07-28", "client")).toContain("request-metadata");
    expect(requiredScenarios("2025-11-25", "server")).not.toContain("server-stateless");
    expect(requiredScenarios("2025-11-25", "client")).toEqual(expect.arrayContaining(["initialize", "sse-retry"]));
  });
});
