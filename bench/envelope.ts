import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { missingRow, row, type BenchRow } from "./table.ts";

const SECTION = "envelope";
const MODULE = join(PACKAGE_ROOT, "generated", "2026-07-28", "envelope.ts");
const WINDOW_MS = 300;
const ROUNDS = 5;

export const ENVELOPE_COMMANDS = [
  `in process: request("tools/call", { name, arguments }, { id, clientCapabilities }) from generated/2026-07-28 vs the same envelope as an object literal; ${ROUNDS} alternating ${WINDOW_MS} ms windows, best of each`,
];

type RequestFn = (method: string, params: unknown, options: { id: number; clientCapabilities: object }) => unknown;

/** Calls per second of `fn` over a fixed window; results go to a sink so nothing is optimised away. */
function opsPerSecond(fn: (i: number) => unknown): number {
  const sink: unknown[] = new Array(64);
  let n = 0;
  const started = performance.now();
  let now = started;
  while (now - started < WINDOW_MS) {
    for (let j = 0; j < 1000; j++, n++) sink[n & 63] = fn(n);
    now = performance.now();
  }
  if (sink.length !== 64) throw new Error("unreachable");
  return (n / (now - started)) * 1000;
}

/** `request(...)` against the envelope written out by hand. */
export async function benchEnvelope(): Promise<BenchRow[]> {
  const measure = 'request("tools/call") vs hand-built object literal';
  if (!existsSync(MODULE)) return [missingRow(SECTION, measure, "n/a (generated/2026-07-28/envelope.ts missing)")];
  const { request } = (await import(pathToFileURL(MODULE).href)) as { request: RequestFn };
  const clientCapabilities = { elicitation: {} };
  const ours = (i: number) =>
    request("tools/call", { name: "echo", arguments: { text: "hi" } }, { id: i, clientCapabilities });
  const literal = (i: number) => ({
    jsonrpc: "2.0",
    id: i,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: { text: "hi" },
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": clientCapabilities,
      },
    },
  });
  let best = { ours: 0, literal: 0 };
  for (let r = 0; r < ROUNDS; r++)
    best = { ours: Math.max(best.ours, opsPerSecond(ours)), literal: Math.max(best.literal, opsPerSecond(literal)) };
  return [row(SECTION, measure, best.ours, best.literal, "ops/s")];
}
