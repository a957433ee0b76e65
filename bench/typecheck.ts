import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { median } from "./measure.ts";
import { missingRow, row, type BenchRow } from "./table.ts";

const SECTION = "type-check";
const ROUNDS = 3;
const CONSUMERS = join(PACKAGE_ROOT, "bench", "consumers");
const TSC = join(PACKAGE_ROOT, "node_modules", "typescript", "lib", "tsc.js");

export const TYPECHECK_COMMANDS = [
  "node node_modules/typescript/lib/tsc.js -p <tmp>/tsconfig.<consumer>.json --extendedDiagnostics   (consumers: bench/consumers/bindings.ts, bench/consumers/sdk.ts; strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, NodeNext, skipLibCheck)",
  "node node_modules/typescript/lib/tsc.js -p <tmp>/tsconfig.declarations.json   (generated/2026-07-28 as .d.ts, then the same consumer against them: what a published package would ship)",
  "node node_modules/typescript/lib/tsc.js -p <tmp>/tsconfig.server-<side>.json --extendedDiagnostics   (README's server: bench/consumers/server-high.ts on createMcpServer, 2026-07-28 and 2025-11-25, vs bench/consumers/server-sdk.ts on SDK v2 2.4.0's McpServer with zod 4 schemas; same options)",
  "node node_modules/typescript/lib/tsc.js -p <tmp>/tsconfig.client-<side>.json --extendedDiagnostics   (README's client without a snapshot, nine calls: bench/consumers/client-high.ts on connectClient offering 2026-07-28 and 2025-11-25, vs bench/consumers/client-sdk.ts on SDK v2 2.4.0's Client; same options)",
];

interface Diagnostics {
  readonly checkSeconds: number;
  readonly types: number;
  readonly instantiations: number;
  readonly memoryKb: number;
}

function runTsc(tsconfig: string): Diagnostics {
  const r = spawnSync(process.execPath, [TSC, "-p", tsconfig, "--extendedDiagnostics"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`tsc -p ${tsconfig} failed:\n${r.stdout}${r.stderr}`);
  const figure = (label: string) => {
    const m = new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(r.stdout);
    if (!m) throw new Error(`no "${label}" in tsc --extendedDiagnostics output`);
    return Number(m[1]);
  };
  return {
    checkSeconds: figure("Check time"),
    types: figure("Types"),
    instantiations: figure("Instantiations"),
    memoryKb: figure("Memory used"),
  };
}

const COMPILER_OPTIONS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  lib: ["ES2022"],
  types: [],
  skipLibCheck: true,
};

function tsconfigFor(dir: string, name: string, consumer = join(CONSUMERS, `${name}.ts`), extra: object = {}): string {
  const file = join(dir, `tsconfig.${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ compilerOptions: { ...COMPILER_OPTIONS, ...extra }, files: [consumer] }, null, 2),
  );
  return file;
}

/**
 * The SDK is measured through its .d.ts files, which skipLibCheck skips; our consumer also pays
 * for checking the generated .ts sources. This emits them as declarations and points a copy of
 * the consumer at those, to see the cost of the types alone.
 */
function declarationConsumer(dir: string): string {
  const generated = join(PACKAGE_ROOT, "generated");
  const emit = tsconfigFor(dir, "declarations", join(generated, "2026-07-28", "index.ts"), {
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: generated,
    outDir: join(dir, "decl"),
  });
  const r = spawnSync(process.execPath, [TSC, "-p", emit], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`declaration emit failed:\n${r.stdout}${r.stderr}`);
  mkdirSync(join(dir, "consumers"), { recursive: true });
  const source = readFileSync(join(CONSUMERS, "bindings.ts"), "utf8").replace(
    "../../generated/2026-07-28/index.js",
    "../decl/2026-07-28/index.js",
  );
  writeFileSync(join(dir, "consumers", "bindings-dts.ts"), source);
  return tsconfigFor(dir, "bindings-dts", join(dir, "consumers", "bindings-dts.ts"));
}

/** One of README's high-level programs (`<name>-high.ts`) against the same program on SDK v2 (`<name>-sdk.ts`). */
function highLevelRows(name: "server" | "client", measure: string): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), `mcp-bindgen-tsc-${name}-`));
  try {
    const ours = tsconfigFor(dir, `${name}-high`);
    const sdk = tsconfigFor(dir, `${name}-sdk`);
    const runs: { ours: Diagnostics[]; sdk: Diagnostics[] } = { ours: [], sdk: [] };
    for (let i = 0; i < ROUNDS; i++) {
      runs.ours.push(runTsc(ours));
      runs.sdk.push(runTsc(sdk));
    }
    const pick = (side: Diagnostics[], key: keyof Diagnostics) => median(side.map((d) => d[key]));
    return [
      row(
        SECTION,
        `${measure}: instantiations`,
        pick(runs.ours, "instantiations"),
        pick(runs.sdk, "instantiations"),
        "",
        { op: "≤", value: 0.2 },
      ),
      row(
        SECTION,
        `${measure}: check time`,
        pick(runs.ours, "checkSeconds") * 1000,
        pick(runs.sdk, "checkSeconds") * 1000,
        "ms",
      ),
      row(SECTION, `${measure}: types`, pick(runs.ours, "types"), pick(runs.sdk, "types"), ""),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * README's server (three tools, two prompts, a resource, a template, logging, progress, completion; both eras)
 * through createMcpServer and through SDK v2's McpServer: what declaring a server costs a consumer's tsc.
 */
export function benchServerTypecheck(): BenchRow[] {
  return highLevelRows("server", "README's server, both eras: createMcpServer vs SDK v2 McpServer (zod)");
}

/** README's client without a snapshot (nine calls, both eras offered) through connectClient and SDK v2's Client. */
export function benchClientTypecheck(): BenchRow[] {
  return highLevelRows("client", "README's client, nine calls, both eras: connectClient vs SDK v2 Client");
}

/** The same consumer program on our bindings and on the SDK: what each costs tsc. */
export function benchTypecheck(): BenchRow[] {
  if (!existsSync(join(PACKAGE_ROOT, "generated", "2026-07-28", "envelope.ts"))) {
    return [
      missingRow(SECTION, "consumer on generated/2026-07-28 vs SDK", "n/a (generated/2026-07-28/envelope.ts missing)"),
    ];
  }
  const dir = mkdtempSync(join(tmpdir(), "mcp-bindgen-tsc-"));
  try {
    const ours = tsconfigFor(dir, "bindings");
    const sdk = tsconfigFor(dir, "sdk");
    const dts = declarationConsumer(dir);
    const runs: { ours: Diagnostics[]; sdk: Diagnostics[]; dts: Diagnostics[] } = { ours: [], sdk: [], dts: [] };
    for (let i = 0; i < ROUNDS; i++) {
      runs.ours.push(runTsc(ours));
      runs.sdk.push(runTsc(sdk));
      runs.dts.push(runTsc(dts));
    }
    const pick = (side: Diagnostics[], key: keyof Diagnostics) => median(side.map((d) => d[key]));
    const measure = "20 requests + handler table";
    return [
      row(
        SECTION,
        `${measure}: check time`,
        pick(runs.ours, "checkSeconds") * 1000,
        pick(runs.sdk, "checkSeconds") * 1000,
        "ms",
        { op: "≤", value: 0.25 },
      ),
      row(
        SECTION,
        `${measure}: instantiations`,
        pick(runs.ours, "instantiations"),
        pick(runs.sdk, "instantiations"),
        "",
        { op: "≤", value: 0.05 },
      ),
      row(SECTION, `${measure}: types`, pick(runs.ours, "types"), pick(runs.sdk, "types"), ""),
      row(SECTION, `${measure}: memory`, pick(runs.ours, "memoryKb") / 1024, pick(runs.sdk, "memoryKb") / 1024, "MB"),
      row(
        SECTION,
        `${measure} on emitted .d.ts: check time`,
        pick(runs.dts, "checkSeconds") * 1000,
        pick(runs.sdk, "checkSeconds") * 1000,
        "ms",
        { op: "≤", value: 0.25 },
      ),
      row(
        SECTION,
        `${measure} on emitted .d.ts: instantiations`,
        pick(runs.dts, "instantiations"),
        pick(runs.sdk, "instantiations"),
        "",
        { op: "≤", value: 0.05 },
      ),
      ...benchServerTypecheck(),
      ...benchClientTypecheck(),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
