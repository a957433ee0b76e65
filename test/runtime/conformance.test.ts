// The official conformance suite (@modelcontextprotocol/conformance, pinned) against the examples: its
// `server` command against examples/server.ts and its `client` command running examples/client.ts, once per
// requirement set, each run at its own revision's wire. Every scored scenario must pass, the client's auth/*
// scenarios included (the example client authorizes through examples/client-auth.ts, the oauth/ part).
// Not-scored scenarios (tasks-* and auth extensions, pending ones) are printed with the totals, never required,
// except the client credentials extension, which the example client offers: both of its scenarios must pass.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ExampleServer } from "../../examples/server.ts";
import { EXAMPLES_DIR } from "../support/test-tree.ts";
import {
  describeReport,
  passed,
  requiredScenarios,
  runConformance,
  type ConformanceReport,
} from "../support/conformance/run.ts";

const REVISIONS = ["2026-07-28", "2025-11-25"] as const;
/** How many client scenarios each requirement set scores, auth/* among them (25 and 14): all must pass. */
const CLIENT_SCORED: Readonly<Record<(typeof REVISIONS)[number], number>> = { "2026-07-28": 32, "2025-11-25": 18 };
/**
 * The suite starts every client scenario at once, one process each: on a loaded machine a client may take many times
 * its idle time to start and finish. Its limit per client (the suite's default is 30 s) and each run's limit stay
 * well above that, and each test's own timeout above the run's (runConformance kills the suite at RUN_LIMIT_MS),
 * so a slow machine gets a slow pass, not a failure that a quiet one would not show.
 */
const CLIENT_LIMIT_MS = 90_000;
/** The extension scenarios the example client offers (client credentials, with a secret and with a key). */
const CLIENT_CREDENTIALS = ["auth/client-credentials-basic", "auth/client-credentials-jwt"];
const RUN_LIMIT_MS = 240_000;
const TEST_LIMIT_MS = RUN_LIMIT_MS + 30_000;

let server: ExampleServer;
let bundleDir: string;
let clientCommand: string;

beforeAll(async () => {
  server = await startServer({ port: 0 });
  // The suite starts the client once per scenario, all at once: one bundled file starts in a tenth of tsx's time.
  bundleDir = mkdtempSync(join(tmpdir(), "mcp-bindgen-client-"));
  const outfile = join(bundleDir, "client.mjs");
  buildSync({
    entryPoints: [join(EXAMPLES_DIR, "client.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "warning",
  });
  clientCommand = `${process.execPath} ${outfile}`;
});

afterAll(async () => {
  await server.close();
  rmSync(bundleDir, { recursive: true, force: true });
});

/** Every scenario the requirement set scores must have run and passed (no failed check, no warning). */
function failing(report: ConformanceReport, revision: string, leg: "server" | "client"): string[] {
  const totals = new Map(report.scored.map((entry) => [entry.scenario, entry]));
  return requiredScenarios(revision, leg).flatMap((scenario) => {
    const entry = totals.get(scenario);
    if (entry === undefined) return [`${scenario}: did not run`];
    return passed(entry) ? [] : [`${scenario}: ${entry.failed} failed, ${entry.warnings} warnings`];
  });
}

describe.each(REVISIONS)("conformance suite, requirements %s", (revision) => {
  it(
    "server: every scored scenario passes against examples/server.ts",
    async () => {
      const report = await runConformance(["server", "--url", server.url, "--requirements", revision], RUN_LIMIT_MS);
      console.log(describeReport(`server ${revision}`, report));
      expect(failing(report, revision, "server"), report.output).toEqual([]);
      expect(report.exitCode).toBe(0);
    },
    TEST_LIMIT_MS,
  );

  it(
    "client: every scored scenario, auth/* included, and the client credentials extension pass with examples/client.ts",
    async () => {
      const report = await runConformance(
        ["client", "--command", clientCommand, "--requirements", revision, "--timeout", String(CLIENT_LIMIT_MS)],
        RUN_LIMIT_MS,
      );
      console.log(describeReport(`client ${revision}`, report));
      expect(failing(report, revision, "client"), report.output).toEqual([]);
      expect(requiredScenarios(revision, "client")).toHaveLength(CLIENT_SCORED[revision]);
      expect(report.scored.filter(passed)).toHaveLength(CLIENT_SCORED[revision]);
      const offered = report.notScored.filter((entry) => CLIENT_CREDENTIALS.includes(entry.scenario));
      expect(
        [...offered].sort((a, b) => a.scenario.localeCompare(b.scenario)),
        report.output,
      ).toEqual(CLIENT_CREDENTIALS.map((scenario) => ({ scenario, reason: "extension", ok: true })));
    },
    TEST_LIMIT_MS,
  );
});
