import { fork, type ChildProcess } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PACKAGE_ROOT } from "../generator/project/project.ts";
import { renderTable, row, type BenchRow } from "./table.ts";

/**
 * The bearer gate's cost (bench/auth-child.ts, one process per server): 2026-07-28 tools/call round trips with the
 * same JWT each time through createBearerGate + createJwtVerifier checking the signature on every request, against
 * SDK v2's requireBearerAuth in front of createMcpHandler with the same jose verification; then the verifier as it
 * comes (accepted tokens remembered) against the same server without auth. Alternating rounds,
 * best of each. `node --import tsx bench/auth.ts` runs these rows alone.
 */
const SECTION = "auth";
const CHILD = join(PACKAGE_ROOT, "bench", "auth-child.ts");
const WINDOW_MS = 1500;
const WARMUP_MS = 300;
const ROUNDS = 2;
const KINDS = ["jwt", "jwt-checking", "sdk", "open"] as const;
type Kind = (typeof KINDS)[number];

export const AUTH_COMMANDS = [
  `bench/auth-child.ts in one process per server (jwt: createHttpHandler + createBearerGate + createJwtVerifier, accepted tokens remembered as by default; jwt-checking: the same with maxCacheSeconds 0, a signature check per request like the SDK's; sdk: SDK v2 2.4.0 requireBearerAuth + createMcpHandler, its verifier jose jwtVerify on the same remote JWKS; open: createHttpHandler without auth); 2026-07-28 tools/call with one RS256 token; ${ROUNDS} alternating ${WINDOW_MS} ms windows after ${WARMUP_MS} ms warm-up, best of each`,
];

interface Child {
  readonly process: ChildProcess;
  readonly port: number;
  readonly token: string;
}

function start(kind: Kind): Promise<Child> {
  const child = fork(CHILD, [kind], { execArgv: ["--import", "tsx"], stdio: ["ignore", "ignore", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("message", (message) => {
      const { port, token } = message as { port: number; token: string };
      resolve({ process: child, port, token });
    });
    child.once("error", reject);
  });
}

function ask<T>(child: Child, question: string): Promise<T> {
  return new Promise((resolve) => {
    child.process.once("message", (message) => resolve(message as T));
    child.process.send(question);
  });
}

const BODY = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: {},
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });

function call(agent: Agent, child: Child, id: number): Promise<void> {
  const body = BODY(id);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: child.port,
        path: "/mcp",
        method: "POST",
        agent,
        headers: {
          host: `127.0.0.1:${child.port}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${child.token}`,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "echo",
          "content-length": String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== 200 || !text.includes("hello"))
            reject(new Error(`tools/call failed: ${res.statusCode} ${text.slice(0, 200)}`));
          else resolve();
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

interface Figures {
  readonly rps: number;
  /** Server CPU µs per request. */
  readonly cpu: number;
}

async function measure(child: Child, concurrency: number): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const run = async (ms: number): Promise<number> => {
    const until = performance.now() + ms;
    let n = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) await call(agent, child, ++n);
      }),
    );
    return n;
  };
  await run(WARMUP_MS);
  const before = await ask<{ cpu: NodeJS.CpuUsage }>(child, "cpu");
  const started = performance.now();
  const n = await run(WINDOW_MS);
  const elapsed = performance.now() - started;
  const after = await ask<{ cpu: NodeJS.CpuUsage }>(child, "cpu");
  agent.destroy();
  const cpu = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
  return { rps: (n / elapsed) * 1000, cpu: cpu / n };
}

export async function benchAuth(): Promise<BenchRow[]> {
  const children = new Map<Kind, Child>();
  try {
    for (const kind of KINDS) children.set(kind, await start(kind));
    const figures = new Map<string, Figures>();
    for (let round = 0; round < ROUNDS; round++)
      for (const concurrency of [1, 16])
        for (const kind of KINDS) {
          const key = `${kind} ${concurrency}`;
          const got = await measure(children.get(kind)!, concurrency);
          const had = figures.get(key);
          figures.set(
            key,
            had === undefined ? got : { rps: Math.max(had.rps, got.rps), cpu: Math.min(had.cpu, got.cpu) },
          );
        }
    return [1, 16].flatMap((concurrency) => {
      const [jwt, checking, sdk, open] = KINDS.map((kind) => figures.get(`${kind} ${concurrency}`)!);
      const at = `2026-07-28, concurrency ${concurrency}`;
      return [
        row(
          SECTION,
          `tools/call through the JWT gate, a signature check per request, ${at}: ours vs SDK v2 requireBearerAuth`,
          checking!.rps,
          sdk!.rps,
          "ops/s",
          {
            op: "≥",
            value: 2,
          },
        ),
        row(SECTION, `tools/call, ${at}: through the JWT gate vs without auth`, jwt!.rps, open!.rps, "ops/s"),
        row(
          SECTION,
          `tools/call, ${at}: JWT gate remembering tokens vs checking each`,
          jwt!.rps,
          checking!.rps,
          "ops/s",
        ),
        row(SECTION, `server CPU per tools/call, ${at}: JWT gate vs without auth`, jwt!.cpu, open!.cpu, "µs"),
      ];
    });
  } finally {
    for (const child of children.values()) child.process.kill();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.stdout.write(renderTable(await benchAuth()) + "\n");
