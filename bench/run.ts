import { existsSync, writeFileSync } from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { AUTH_COMMANDS, benchAuth } from "./auth.ts";
import { BUNDLE_COMMANDS, benchBundle } from "./bundle.ts";
import { ENVELOPE_COMMANDS, benchEnvelope } from "./envelope.ts";
import { SERVER_COMMANDS, benchServer } from "./server.ts";
import { GENERATION_COMMANDS, benchGeneration } from "./generation.ts";
import { REDIS_COMMANDS, benchRedis } from "./redis.ts";
import { missingRow, renderTable, row, type BenchRow } from "./table.ts";
import { TOOLS_COMMANDS, benchTools } from "./tools.ts";
import { TYPECHECK_COMMANDS, benchTypecheck } from "./typecheck.ts";

/**
 * `npm run bench`: every figure is a ratio against a baseline measured in this same run, so
 * the table means the same on a slow laptop and a fast CI machine. Writes bench/RESULTS.md.
 */
const VALIDATION_BENCH = join(PACKAGE_ROOT, "bench", "validate.bench.ts");

/** The validation helper's rows: `{ version, name, ms, ratio }`, each against JSON.parse alone on the same corpus. */
interface ValidationRow {
  readonly version: string;
  readonly name: string;
  readonly ms: number;
  readonly ratio: number;
}

async function validationRows(): Promise<BenchRow[]> {
  if (!existsSync(VALIDATION_BENCH))
    return [missingRow("validation", "validators", "n/a (bench/validate.bench.ts missing)")];
  const mod = (await import(pathToFileURL(VALIDATION_BENCH).href)) as { runValidationBench?: () => Promise<unknown> };
  if (typeof mod.runValidationBench !== "function")
    return [missingRow("validation", "validators", "n/a (no runValidationBench export)")];
  const rows = await mod.runValidationBench();
  if (!Array.isArray(rows) || !rows.every(isValidationRow))
    return [missingRow("validation", "validators", "n/a (unexpected runValidationBench rows)")];
  return rows
    .filter((r) => r.name !== "JSON.parse")
    .map((r) => {
      // The validation issue's target applies to ours; the SDK and Ajv rows are the comparison.
      const target = r.name.includes("mcp-bindgen") ? { op: "≤" as const, value: 1.1 } : undefined;
      return row(
        "validation",
        `${r.version}: ${r.name} vs JSON.parse alone, one corpus pass`,
        r.ms,
        r.ms / r.ratio,
        "ms",
        target,
      );
    });
}

function isValidationRow(value: unknown): value is ValidationRow {
  const r = value as Partial<ValidationRow> | null;
  return (
    typeof r === "object" &&
    r !== null &&
    typeof r.version === "string" &&
    typeof r.name === "string" &&
    typeof r.ms === "number" &&
    typeof r.ratio === "number" &&
    r.ratio > 0
  );
}

/** "command   (note)" → "- `command` (note)". */
function commandLine(entry: string): string {
  const m = /^(.*?)\s{3,}\((.*)\)$/.exec(entry);
  return m ? `- \`${m[1]}\` (${m[2]})` : `- \`${entry}\``;
}

function machine(): string[] {
  const cpu = cpus();
  return [
    `- CPU: ${cpu[0]?.model ?? "unknown"} × ${cpu.length} (nproc)`,
    `- memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${platform()} ${release()}`,
    `- Node ${process.version}`,
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const sections: [string, () => Promise<BenchRow[]> | BenchRow[]][] = [
    ["generation", benchGeneration],
    ["type-check", benchTypecheck],
    ["bundle", benchBundle],
    ["envelope", benchEnvelope],
    ["validation", validationRows],
    ["tools", benchTools],
    ["server", benchServer],
    ["redis", benchRedis],
    ["auth", benchAuth],
  ];
  const rows: BenchRow[] = [];
  for (const [name, run] of sections) {
    process.stderr.write(`bench: ${name}…\n`);
    rows.push(...(await run()));
  }
  const table = renderTable(rows);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  process.stdout.write(table + "\n");
  const commands = [
    ...GENERATION_COMMANDS,
    ...TYPECHECK_COMMANDS,
    ...BUNDLE_COMMANDS,
    ...ENVELOPE_COMMANDS,
    "validation: runValidationBench() from bench/validate.bench.ts",
    ...TOOLS_COMMANDS,
    ...SERVER_COMMANDS,
    ...REDIS_COMMANDS,
    ...AUTH_COMMANDS,
  ];
  writeFileSync(
    join(PACKAGE_ROOT, "bench", "RESULTS.md"),
    [
      "# Benchmark results",
      "",
      `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (took ${seconds} s). Ratio = ours ÷ baseline, both measured in the same run.`,
      "",
      ...machine(),
      "",
      table,
      "",
      'The SDK side of the "20 requests" type-check rows is `@modelcontextprotocol/sdk` 1.32.2 (`Client.request` with result schemas,',
      "`Server.setRequestHandler`). The \"README's server\" rows measure SDK v2 (`@modelcontextprotocol/server` 2.4.0's",
      "`McpServer`, zod 4) against `createMcpServer` (bench/consumers/server-sdk.ts and server-high.ts). The generated `.ts`",
      "modules carry `// @ts-nocheck` as generated (the default; `typeCheckOutput: true` leaves it out), so a consumer's tsc",
      "reads their declared types and skips their bodies, as `skipLibCheck` skips the SDK's `.d.ts`.",
      "",
      "## Commands",
      "",
      ...commands.map(commandLine),
      "",
    ].join("\n"),
  );
}

await main();
