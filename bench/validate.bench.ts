// Validation cost relative to JSON.parse alone, on one corpus of 10,000 realistic messages:
// the official SDK's zod schemas, Ajv on the official schema.json, and the generated validators.
// Plus the bundle size (esbuild, minified, gzip) of one version's validators and of builders +
// parse + validators. Run standalone with `npx tsx bench/validate.bench.ts`; requires a fresh
// `npm run generate`.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import * as Core from "@modelcontextprotocol/core";
import * as Sdk from "@modelcontextprotocol/sdk/types.js";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { build } from "esbuild";

export interface Row {
  readonly version: string;
  readonly name: string;
  /** Median milliseconds for one pass over the corpus. */
  readonly ms: number;
  /** `ms` divided by JSON.parse alone's. */
  readonly ratio: number;
}

export interface SizeRow {
  readonly bundle: string;
  readonly minified: number;
  readonly gzip: number;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA_DIR = process.env["MCP_SCHEMA_DIR"] ?? join(ROOT, "node_modules", ".cache", "mcp-bindgen");
/** The SDK's own version, and the newest (schemas from @modelcontextprotocol/core). */
const VERSIONS = ["2025-11-25", "2026-07-28"] as const;
const CORPUS_SIZE = 10_000;

/** One wire message and, for responses, the method of the request it answers (a client knows it by id). */
export interface Entry {
  readonly text: string;
  readonly method: string;
  readonly kind: "request" | "notification" | "result" | "error";
}

interface Validators {
  validateMessage(msg: unknown): { ok: boolean };
  validateResult(method: string, result: unknown): { ok: boolean };
}

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a * 1103515245 + 12345) & 0x7fffffff;
    return a / 0x7fffffff;
  };
}

export function corpus(version: string): Entry[] {
  const rand = random(42);
  const modern = version >= "2026-07-28";
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const meta = modern
    ? {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": version,
          "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
        },
      }
    : {};
  const complete = modern ? { resultType: "complete" } : {};
  const words = ["alpha", "beta", "gamma", "delta", "file.txt", "SELECT * FROM t", "https://example.com/a?b=c"];
  const sentence = () => Array.from({ length: 5 + Math.floor(rand() * 30) }, () => pick(words)).join(" ");
  const tool = (i: number) => ({
    name: `tool_${i}`,
    title: `Tool ${i}`,
    description: sentence(),
    inputSchema: {
      type: "object",
      properties: {
        path: { type: "string", description: "A path" },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        options: { type: "object", properties: { recursive: { type: "boolean" } } },
      },
      required: ["path"],
    },
    annotations: { readOnlyHint: rand() < 0.5, openWorldHint: false },
  });
  const entries: Entry[] = [];
  for (let id = 1; entries.length < CORPUS_SIZE; id++) {
    const r = rand();
    if (r < 0.3) {
      const params = {
        ...meta,
        name: `tool_${id % 7}`,
        arguments: { path: `/srv/${id}.txt`, limit: id % 100, options: { recursive: true, tags: ["a", "b"] } },
      };
      entries.push({
        kind: "request",
        method: "tools/call",
        text: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
      });
    } else if (r < 0.55) {
      const content: unknown[] = [{ type: "text", text: sentence() }];
      if (rand() < 0.2)
        content.push({
          type: "image",
          data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
          mimeType: "image/png",
        });
      if (rand() < 0.2) content.push({ type: "resource_link", uri: `file:///srv/${id}.txt`, name: `${id}.txt` });
      const result = { ...complete, content, isError: false, structuredContent: { count: id, items: [id, id + 1] } };
      entries.push({ kind: "result", method: "tools/call", text: JSON.stringify({ jsonrpc: "2.0", id, result }) });
    } else if (r < 0.7) {
      const cache = modern ? { ttlMs: 60_000, cacheScope: "public" } : {};
      const result = {
        ...complete,
        ...cache,
        tools: Array.from({ length: 3 + Math.floor(rand() * 6) }, (_, i) => tool(i)),
      };
      entries.push({ kind: "result", method: "tools/list", text: JSON.stringify({ jsonrpc: "2.0", id, result }) });
    } else if (r < 0.9) {
      const params = { progressToken: `op-${id % 50}`, progress: id % 100, total: 100, message: "working" };
      entries.push({
        kind: "notification",
        method: "notifications/progress",
        text: JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params }),
      });
    } else {
      const error = { code: pick([-32601, -32602, -32603]), message: "Something failed", data: { detail: sentence() } };
      entries.push({ kind: "error", method: "", text: JSON.stringify({ jsonrpc: "2.0", id, error }) });
    }
  }
  return entries;
}

type Check = (msg: unknown, entry: Entry) => boolean;

function sdkCheck(version: string): Check {
  const lib = version >= "2026-07-28" ? (Core as unknown as typeof Sdk) : Sdk;
  const request = new Map<string, { safeParse(v: unknown): { success: boolean } }>([
    ["tools/call", lib.CallToolRequestSchema],
  ]);
  const notification = new Map<string, { safeParse(v: unknown): { success: boolean } }>([
    ["notifications/progress", lib.ProgressNotificationSchema],
  ]);
  const result = new Map<string, { safeParse(v: unknown): { success: boolean } }>([
    ["tools/call", lib.CallToolResultSchema],
    ["tools/list", lib.ListToolsResultSchema],
  ]);
  return (msg, e) => {
    if (!lib.JSONRPCMessageSchema.safeParse(msg).success) return false;
    if (e.kind === "request") return request.get(e.method)!.safeParse(msg).success;
    if (e.kind === "notification") return notification.get(e.method)!.safeParse(msg).success;
    if (e.kind === "result") return result.get(e.method)!.safeParse((msg as { result: unknown }).result).success;
    return true;
  };
}

function ajvCheck(version: string): Check {
  const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, version, "schema.json"), "utf8")) as Record<string, unknown>;
  const is2020 = Object.prototype.hasOwnProperty.call(schema, "$defs");
  const ajv = is2020 ? new Ajv2020({ strict: false }) : new Ajv({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema(schema, "mcp");
  const def = (name: string) => ajv.getSchema(`mcp#/${is2020 ? "$defs" : "definitions"}/${name}`)!;
  const message = def("JSONRPCMessage");
  const byMethod = new Map([
    ["request tools/call", def("CallToolRequest")],
    ["notification notifications/progress", def("ProgressNotification")],
    ["result tools/call", def("CallToolResult")],
    ["result tools/list", def("ListToolsResult")],
  ]);
  return (msg, e) => {
    if (!message(msg)) return false;
    if (e.kind === "error") return true;
    const check = byMethod.get(`${e.kind} ${e.method}`)!;
    return check(e.kind === "result" ? (msg as { result: unknown }).result : msg) as boolean;
  };
}

function oursCheck(v: Validators): Check {
  return (msg, e) =>
    v.validateMessage(msg).ok &&
    (e.kind !== "result" || v.validateResult(e.method, (msg as { result: unknown }).result).ok);
}

/** One timed pass over the corpus; every variant also parses, as a receiver must. */
function pass(entries: readonly Entry[], check: Check | null): number {
  let ok = 0;
  const started = performance.now();
  for (const e of entries) {
    const msg: unknown = JSON.parse(e.text);
    if (check === null || check(msg, e)) ok++;
  }
  const ms = performance.now() - started;
  if (ok !== entries.length) throw new Error(`only ${ok} of ${entries.length} messages passed`);
  return ms;
}

/**
 * Median pass time per variant. Variants take turns within each round, so GC pressure and JIT
 * or CPU-frequency drift land on all of them alike rather than on whichever ran last.
 */
function timeAll(entries: readonly Entry[], checks: readonly (Check | null)[], rounds = 21): number[] {
  for (let i = 0; i < 3; i++) for (const c of checks) pass(entries, c);
  const samples = checks.map((): number[] => []);
  for (let r = 0; r < rounds; r++) checks.forEach((c, i) => samples[i]!.push(pass(entries, c)));
  return samples.map((s) => s.sort((a, b) => a - b)[Math.floor(s.length / 2)]!);
}

export async function runValidationBench(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const version of VERSIONS) {
    const entries = corpus(version);
    const ours = (await import(pathToFileURL(join(ROOT, "generated", version, "validate.ts")).href)) as Validators;
    const variants: [string, Check | null][] = [
      ["JSON.parse", null],
      ["JSON.parse + official SDK (zod)", sdkCheck(version)],
      ["JSON.parse + Ajv (official schema)", ajvCheck(version)],
      ["JSON.parse + mcp-bindgen validators", oursCheck(ours)],
    ];
    const times = timeAll(
      entries,
      variants.map(([, c]) => c),
    );
    variants.forEach(([name], i) =>
      rows.push({ version, name, ms: round(times[i]!), ratio: round(times[i]! / times[0]!) }),
    );
  }
  return rows;
}

export async function measureBundles(version = "2026-07-28"): Promise<SizeRow[]> {
  const dir = join(ROOT, "generated", version);
  const bundles: [string, string][] = [["validate.ts (all exports)", `export * from "./validate.ts";`]];
  if (existsSync(join(dir, "envelope.ts"))) {
    bundles.push([
      "builders + parse + validators",
      `export { request, notification, resultResponse, errorResponse, parse, encode } from "./envelope.ts";\n` +
        `export { validate, validateMessage, validateResult } from "./validate.ts";`,
    ]);
  }
  const rows: SizeRow[] = [];
  for (const [bundle, contents] of bundles) {
    const out = await build({
      stdin: { contents, resolveDir: dir, loader: "ts" },
      bundle: true,
      minify: true,
      format: "esm",
      write: false,
      platform: "neutral",
    });
    const bytes = out.outputFiles[0]!.contents;
    rows.push({ bundle: `${version} ${bundle}`, minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return rows;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.table(await runValidationBench());
  console.table(await measureBundles());
}
