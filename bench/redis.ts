import { pathToFileURL } from "node:url";
import { startRedis } from "../test/support/redis-server.ts";
import { ask, best, measure, start, type Child, type Figures } from "./server.ts";
import { renderTable, row, type BenchRow } from "./table.ts";

/**
 * The Redis part's cost (issue 38): 2025-11-25 tools/call round trips of the shipped server with the Redis
 * stores (generated/runtime/redis, a local redis-server) against the same server with the in-memory ones, each
 * in its own process (bench/server-child.ts `redis` and `ours`), and heap per idle session with Redis.
 * `node --import tsx bench/redis.ts` prints these rows alone.
 */
const SECTION = "redis";
const ROUNDS = 2;

export const REDIS_COMMANDS = [
  `bench/redis.ts: bench/server-child.ts as \`ours\` (in-memory stores) and \`redis\` (createRedisStores on a redis-server started for the run, --save '' --appendonly no), 2025-11-25 tools/call over one session per client connection as in the server rows, ${ROUNDS} alternating windows per figure, best of each; heap after gc per idle session over 2,000`,
];

export async function benchRedis(): Promise<BenchRow[]> {
  const redis = await startRedis();
  const children: Child[] = [];
  try {
    const memory = await start("ours");
    children.push(memory);
    const shared = await start("redis", redis.url);
    children.push(shared);
    const figures = new Map<string, Figures>();
    for (let round = 0; round < ROUNDS; round++)
      for (const concurrency of [1, 16])
        for (const [name, child] of [
          ["memory", memory],
          ["redis", shared],
        ] as const) {
          const key = `${name} ${concurrency}`;
          figures.set(key, best(figures.get(key), await measure(child, "2025-11-25", concurrency)));
        }
    const rows: BenchRow[] = [];
    for (const concurrency of [1, 16]) {
      const inMemory = figures.get(`memory ${concurrency}`)!;
      const onRedis = figures.get(`redis ${concurrency}`)!;
      rows.push(
        row(
          SECTION,
          `tools/call round trips, 2025-11-25, concurrency ${concurrency}: Redis stores vs in-memory`,
          onRedis.rps,
          inMemory.rps,
          "ops/s",
          { op: "≥", value: 0.5 },
        ),
        row(
          SECTION,
          `server CPU per request, 2025-11-25, concurrency ${concurrency}: Redis stores vs in-memory`,
          onRedis.cpu,
          inMemory.cpu,
          "µs",
        ),
      );
    }
    const memoryBytes = await ask<{ bytes: number }>(memory, "sessions");
    const redisBytes = await ask<{ bytes: number }>(shared, "sessions");
    rows.push(
      row(
        SECTION,
        "heap per idle 2025-11-25 session: Redis stores vs in-memory",
        redisBytes.bytes,
        memoryBytes.bytes,
        "B",
      ),
    );
    return rows;
  } finally {
    for (const child of children) child.process.kill();
    await redis.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.stdout.write(renderTable(await benchRedis()) + "\n");
