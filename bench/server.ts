import { fork, type ChildProcess } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { row, type BenchRow } from "./table.ts";

/**
 * The shipped server transport on node:http against SDK v2's createMcpHandler (the same two tools) and a
 * bare node:http server that answers the same JSON (the limit), each in its own process
 * (bench/server-child.ts): tools/call round trips per second at concurrency 1 and 16 in each era, p50/p99
 * latency, server CPU per request, and heap per idle 2025 session. Alternating rounds, best of each.
 */
const SECTION = "server";
const CHILD = join(PACKAGE_ROOT, "bench", "server-child.ts");
const WINDOW_MS = 1500;
const WARMUP_MS = 300;
const ROUNDS = 2;
const KINDS = ["ours", "high", "sdk", "bare"] as const;
type Kind = (typeof KINDS)[number];
type Era = "2026-07-28" | "2025-11-25";

export const SERVER_COMMANDS = [
  `bench/server-child.ts in one process per server (ours: createHttpHandler + toNodeListener; high: the same tools on createMcpServer; SDK v2 2.4.0: createMcpHandler behind node:http; bare: node:http answering the same JSON); a keep-alive node:http client in the bench process; ${ROUNDS} alternating ${WINDOW_MS} ms windows per figure after ${WARMUP_MS} ms warm-up, best of each; CPU is the server process's user+system time; memory is heap after gc per idle 2025 session over 2,000 (SDK v2: its sessionful WebStandardStreamableHTTPServerTransport, one McpServer per session)`,
];

export interface Child {
  readonly process: ChildProcess;
  readonly port: number;
}

export function start(kind: Kind | "redis", ...args: string[]): Promise<Child> {
  const child = fork(CHILD, [kind, ...args], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (message) => resolve({ process: child, port: (message as { port: number }).port }));
    child.once("error", reject);
  });
}

export function ask<T>(child: Child, question: string): Promise<T> {
  return new Promise((resolve) => {
    child.process.once("message", (message) => resolve(message as T));
    child.process.send(question);
  });
}

function post(
  agent: Agent,
  port: number,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; session: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const session = res.headers["mcp-session-id"];
          resolve({
            status: res.statusCode ?? 0,
            session: typeof session === "string" ? session : undefined,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const BASE = { host: "127.0.0.1", "content-type": "application/json", accept: "application/json, text/event-stream" };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A function that makes one tools/call round trip in `era` against `child`. */
async function caller(child: Child, era: Era, agent: Agent): Promise<(id: number) => Promise<void>> {
  if (era === "2026-07-28") {
    const headers = { ...BASE, "mcp-protocol-version": era, "mcp-method": "tools/call", "mcp-name": "echo" };
    return async (id) => {
      const answer = await post(
        agent,
        child.port,
        headers,
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "echo", arguments: {}, _meta: META },
        }),
      );
      if (answer.status !== 200 || !answer.text.includes("hello"))
        throw new Error(`tools/call failed: ${answer.status} ${answer.text.slice(0, 200)}`);
    };
  }
  const init = JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: era, capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
  const opened = await post(agent, child.port, BASE, init);
  const headers: Record<string, string> = {
    ...BASE,
    "mcp-protocol-version": era,
    ...(opened.session === undefined ? {} : { "mcp-session-id": opened.session }),
  };
  if (opened.session !== undefined)
    await post(agent, child.port, headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return async (id) => {
    const answer = await post(
      agent,
      child.port,
      headers,
      JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: {} } }),
    );
    if (answer.status !== 200 || !answer.text.includes("hello"))
      throw new Error(`tools/call failed: ${answer.status} ${answer.text.slice(0, 200)}`);
  };
}

export interface Figures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Server CPU µs per request. */
  readonly cpu: number;
}

export async function measure(child: Child, era: Era, concurrency: number): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const call = await caller(child, era, agent);
  const run = async (ms: number, latencies: number[] | undefined): Promise<number> => {
    const until = performance.now() + ms;
    let n = 0;
    // Bounded: each worker stops at the deadline.
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const started = performance.now();
          await call(++n);
          latencies?.push(performance.now() - started);
        }
      }),
    );
    return n;
  };
  await run(WARMUP_MS, undefined);
  const latencies: number[] = [];
  const cpuBefore = await ask<{ cpu: NodeJS.CpuUsage }>(child, "cpu");
  const started = performance.now();
  const n = await run(WINDOW_MS, latencies);
  const elapsed = performance.now() - started;
  const cpuAfter = await ask<{ cpu: NodeJS.CpuUsage }>(child, "cpu");
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const cpu = cpuAfter.cpu.user + cpuAfter.cpu.system - cpuBefore.cpu.user - cpuBefore.cpu.system;
  return {
    rps: (n / elapsed) * 1000,
    p50: latencies[Math.floor(latencies.length * 0.5)]!,
    p99: latencies[Math.floor(latencies.length * 0.99)]!,
    cpu: cpu / n,
  };
}

export function best(a: Figures | undefined, b: Figures): Figures {
  if (a === undefined) return b;
  return {
    rps: Math.max(a.rps, b.rps),
    p50: Math.min(a.p50, b.p50),
    p99: Math.min(a.p99, b.p99),
    cpu: Math.min(a.cpu, b.cpu),
  };
}

export async function benchServer(): Promise<BenchRow[]> {
  const children = new Map<Kind, Child>();
  try {
    for (const kind of KINDS) children.set(kind, await start(kind));
    const figures = new Map<string, Figures>();
    const configs = (["2026-07-28", "2025-11-25"] as const).flatMap((era) =>
      [1, 16].map((concurrency) => ({ era, concurrency })),
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const { era, concurrency } of configs) {
        for (const kind of KINDS) {
          // The bare server knows no era: it answers every POST with the same JSON.
          const key = `${kind} ${era} ${concurrency}`;
          figures.set(
            key,
            best(
              figures.get(key),
              await measure(children.get(kind)!, kind === "bare" ? "2026-07-28" : era, concurrency),
            ),
          );
        }
      }
    }
    const rows: BenchRow[] = [];
    for (const { era, concurrency } of configs) {
      const ours = figures.get(`ours ${era} ${concurrency}`)!;
      const sdk = figures.get(`sdk ${era} ${concurrency}`)!;
      const high = figures.get(`high ${era} ${concurrency}`)!;
      const bare = figures.get(`bare ${era} ${concurrency}`)!;
      const at = `${era}, concurrency ${concurrency}`;
      rows.push(
        row(SECTION, `tools/call round trips, ${at}: ours vs SDK v2`, ours.rps, sdk.rps, "ops/s", {
          op: "≥",
          value: 2,
        }),
        row(
          SECTION,
          `tools/call round trips, ${at}: high-level createMcpServer vs SDK v2 registerTool`,
          high.rps,
          sdk.rps,
          "ops/s",
          {
            op: "≥",
            value: 2,
          },
        ),
        row(SECTION, `tools/call round trips, ${at}: ours vs bare node:http (the limit)`, ours.rps, bare.rps, "ops/s"),
        row(SECTION, `p50 latency, ${at}: ours vs SDK v2`, ours.p50, sdk.p50, "ms"),
        row(SECTION, `p99 latency, ${at}: ours vs SDK v2`, ours.p99, sdk.p99, "ms"),
        row(SECTION, `server CPU per request, ${at}: ours vs SDK v2`, ours.cpu, sdk.cpu, "µs", {
          op: "≤",
          value: 0.333,
        }),
      );
    }
    const oursBytes = await ask<{ bytes: number }>(children.get("ours")!, "sessions");
    const sdkBytes = await ask<{ bytes: number }>(children.get("sdk")!, "sessions");
    rows.push(
      row(
        SECTION,
        "heap per idle 2025-11-25 session: ours vs SDK v2 (sessionful)",
        oursBytes.bytes,
        sdkBytes.bytes,
        "B",
        { op: "≤", value: 0.2 },
      ),
    );
    return rows;
  } finally {
    for (const child of children.values()) child.process.kill();
  }
}
