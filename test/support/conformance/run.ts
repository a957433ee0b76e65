import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../../generator/project/project.ts";

/** The suite's CLI, started with the Node 20 preload the package ships (bin/conformance-node20.js says why). */
const CLI = join(PACKAGE_ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const PRELOAD = join(PACKAGE_ROOT, "bin", "conformance-node20.js");

export interface ScenarioTotal {
  readonly scenario: string;
  readonly passed: number;
  readonly failed: number;
  /** Client runs print warnings too; the suite counts a scenario with warnings as not passing. */
  readonly warnings: number;
}

export interface NotScored {
  readonly scenario: string;
  readonly reason: string;
  readonly ok: boolean;
}

/** What one `--requirements` run reported, in the suite's own terms. */
export interface ConformanceReport {
  readonly exitCode: number | null;
  /** Every scenario the run printed a total for (scored and not scored). */
  readonly scenarios: readonly ScenarioTotal[];
  readonly notScored: readonly NotScored[];
  /** The scenarios that count: every printed one minus the not-scored ones. */
  readonly scored: readonly ScenarioTotal[];
  /** The suite's "Total: N passed, M failed" line (checks, scored and not). */
  readonly total: { readonly passed: number; readonly failed: number } | undefined;
  readonly output: string;
}

const SCENARIO_LINE = /^[✓✗] (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?$/;
const NOT_SCORED_LINE = /^\s+([✓✗]) (\S+) \(([^)]+)\)$/;
const TOTAL_LINE = /^Total: (\d+) passed, (\d+) failed$/;

/** Reads the summary the CLI prints after a run; the per-check JSON files are left to humans. */
export function parseReport(output: string, exitCode: number | null): ConformanceReport {
  const scenarios: ScenarioTotal[] = [];
  const notScored: NotScored[] = [];
  let total: ConformanceReport["total"];
  let inNotScored = false;
  for (const line of output.split("\n")) {
    const scenario = SCENARIO_LINE.exec(line);
    if (scenario)
      scenarios.push({
        scenario: scenario[1]!,
        passed: Number(scenario[2]),
        failed: Number(scenario[3]),
        warnings: Number(scenario[4] ?? 0),
      });
    const totals = TOTAL_LINE.exec(line);
    if (totals) total = { passed: Number(totals[1]), failed: Number(totals[2]) };
    if (line.startsWith("Not scored")) inNotScored = true;
    else if (inNotScored) {
      const entry = NOT_SCORED_LINE.exec(line);
      if (entry) notScored.push({ scenario: entry[2]!, reason: entry[3]!, ok: entry[1] === "✓" });
      else if (line.trim() !== "") inNotScored = false;
    }
  }
  const unscored = new Set(notScored.map((entry) => entry.scenario));
  const scored = scenarios.filter((entry) => !unscored.has(entry.scenario));
  return { exitCode, scenarios, notScored, scored, total, output };
}

/** Runs `conformance <args…>` as one child process and parses its summary; results go to a temporary folder. */
export function runConformance(args: readonly string[], timeoutMs = 240_000): Promise<ConformanceReport> {
  const outDir = mkdtempSync(join(tmpdir(), "mcp-bindgen-conformance-"));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--import", PRELOAD, CLI, ...args, "--output-dir", outDir],
      {
        cwd: PACKAGE_ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      rmSync(outDir, { recursive: true, force: true });
      resolve(parseReport(output, code));
    });
  });
}

/** Whether a scenario passed in the suite's own sense: no failed check and no warning. */
export function passed(entry: ScenarioTotal): boolean {
  return entry.failed === 0 && entry.warnings === 0;
}

/** The scenarios a requirement set scores for one leg, read from the suite's own requirements/<revision>.yaml. */
export function requiredScenarios(revision: string, leg: "server" | "client"): string[] {
  const yaml = readFileSync(
    join(PACKAGE_ROOT, "node_modules", "@modelcontextprotocol", "conformance", "requirements", `${revision}.yaml`),
    "utf8",
  );
  const names: string[] = [];
  let inLeg = false;
  for (const line of yaml.split("\n")) {
    if (/^\S/.test(line)) inLeg = line.startsWith(`${leg}:`);
    else if (inLeg) {
      const item = /^ {2}- (\S+)\s*$/.exec(line);
      if (item) names.push(item[1]!);
    }
  }
  return names;
}

/** One line per scenario for the test log: the figures the README quotes come from here. */
export function describeReport(title: string, report: ConformanceReport): string {
  const passedScored = report.scored.filter(passed).length;
  const lines = [`${title}: ${passedScored}/${report.scored.length} scored scenarios passed (exit ${report.exitCode})`];
  for (const entry of report.scored) {
    const warnings = entry.warnings > 0 ? `, ${entry.warnings} warnings` : "";
    lines.push(
      `  ${passed(entry) ? "pass" : "FAIL"} ${entry.scenario}: ${entry.passed} passed, ${entry.failed} failed${warnings}`,
    );
  }
  for (const entry of report.notScored)
    lines.push(`  not scored (${entry.reason}) ${entry.ok ? "pass" : "fail"} ${entry.scenario}`);
  return lines.join("\n");
}
