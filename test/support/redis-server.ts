// A real redis-server for the Redis part's tests: Debian's package (CI installs it: .ci/run), started on a free
// port with nothing persisted unless a test asks, and stopped after. Found at REDIS_SERVER, on PATH or in /usr/bin.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The redis-server binary, or undefined when this machine has none (the tests then skip, saying so). */
export function redisServerPath(): string | undefined {
  const named = process.env["REDIS_SERVER"];
  if (named !== undefined && existsSync(named)) return named;
  const found = spawnSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).stdout.trim();
  if (found !== "") return found;
  return existsSync("/usr/bin/redis-server") ? "/usr/bin/redis-server" : undefined;
}

export const REDIS_MISSING =
  "redis-server not found (install Debian's redis-server, or set REDIS_SERVER): the Redis tests are skipped";

/** True when the Redis tests must skip (no redis-server here), saying so; on CI (`CI` set) that is a failure instead. */
export function redisMissing(): boolean {
  if (redisServerPath() !== undefined) return false;
  if (process.env["CI"] !== undefined)
    throw new Error(`${REDIS_MISSING}, which CI does not allow (.ci/run installs it)`);
  console.warn(REDIS_MISSING);
  return true;
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server; with `save`, it writes its data first, for the next `start` to load. */
  stop(options?: { readonly save?: boolean }): Promise<void>;
  /** Starts it again on the same port and folder. */
  start(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const binary = redisServerPath();
  if (binary === undefined) throw new Error(REDIS_MISSING);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "mcp-redis-"));
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const started = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      started.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) resolve();
      });
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    });
  };
  const stop = async (options: { readonly save?: boolean } = {}): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    if (options.save === true) {
      // SHUTDOWN SAVE over a raw connection: the data survives into the next start.
      const { Redis } = await import("ioredis");
      const client = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0 });
      client.on("error", () => undefined);
      await client.connect();
      await client.shutdown("SAVE").catch(() => undefined);
      client.disconnect();
    } else running.kill("SIGKILL");
    await exited;
  };
  await start();
  process.once("exit", () => {
    child?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  return { url: `redis://127.0.0.1:${port}`, port, start, stop };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** Waits until `check` holds, trying every 20 ms; fails after `attempts` tries. Not a timing claim: a bound on waiting. */
export async function until(check: () => boolean | Promise<boolean>, attempts = 500): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the condition never held");
}
