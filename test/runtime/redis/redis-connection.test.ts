import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeRedis, duplicateRedis, openRedis, whenReady } from "../../../generator/runtime/redis/redis-connection.ts";
import { redisMissing, startRedis, until, type RedisServer } from "../../support/redis-server.ts";

const missing = redisMissing();

describe.skipIf(missing)("openRedis against redis-server", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("a connection made from a URL fails a command at once while Redis is away, reports the outage once, and is back without a restart", async () => {
    const errors: unknown[] = [];
    const { client, owned } = openRedis(server.url, { onError: (error) => errors.push(error) });
    expect(owned).toBe(true);
    await whenReady(client);
    expect(await client.ping()).toBe("PONG");
    await server.stop();
    // No queue: the command is refused rather than held until Redis returns.
    await until(async () => (await client.ping().catch(() => "refused")) === "refused");
    await until(() => errors.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).toHaveLength(1);
    await server.start();
    await until(async () => (await client.ping().catch(() => "refused")) === "PONG");
    await closeRedis(client);
    await until(() => client.status === "end");
  });

  it("a client you give is used as it is, and its duplicate (for subscribing) is a second connection like it", async () => {
    const yours = new Redis(server.url, { keyPrefix: "yours:" });
    const { client, owned } = openRedis(yours);
    expect([client, owned]).toEqual([yours, false]);
    const copy = duplicateRedis(client);
    await whenReady(copy);
    expect(copy).not.toBe(yours);
    expect(copy.options.keyPrefix).toBe("yours:");
    await closeRedis(copy);
    expect(await yours.ping()).toBe("PONG");
    yours.disconnect();
  });
});
