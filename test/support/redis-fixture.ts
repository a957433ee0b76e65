// A redis-server with one client, for a describe block of the Redis part's tests (its own file, so that the bench,
// which starts servers through redis-server.ts, imports nothing of vitest).
import { Redis } from "ioredis";
import { afterAll, beforeAll } from "vitest";
import { startRedis, type RedisServer } from "./redis-server.ts";

/** A redis-server and one client of it for the enclosing describe block, started before its tests and stopped after. */
export function redisWithClient(): { readonly server: RedisServer; readonly client: Redis } {
  let server: RedisServer | undefined;
  let client: Redis | undefined;
  beforeAll(async () => {
    server = await startRedis();
    client = new Redis(server.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });
  return {
    get server() {
      return server!;
    },
    get client() {
      return client!;
    },
  };
}
