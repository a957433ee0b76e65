import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisStores } from "../../../generator/runtime/redis/redis-stores.ts";
import { redisMissing, startRedis, until, type RedisServer } from "../../support/redis-server.ts";

const missing = redisMissing();

describe.skipIf(missing)("createRedisStores against redis-server", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server.stop();
  });

  it("two instances' stores on one URL share sessions, events and messages under one prefix; close ends what they opened", async () => {
    const [a, b] = [
      createRedisStores(server.url, { prefix: "fleet:" }),
      createRedisStores(server.url, { prefix: "fleet:" }),
    ];
    await Promise.all([a.ready(), b.ready()]);
    const record = {
      version: "2025-11-25",
      clientCapabilities: undefined,
      clientInfo: undefined,
      logLevel: undefined,
      subscriptions: [],
      subject: undefined,
      initialized: true,
      ready: true,
    };
    await a.sessionStore.set("s", record, 60_000);
    expect(await b.sessionStore.get("s")).toEqual(record);
    await a.eventStore.append("s/x", 1, "data: 1\n\n");
    expect(await b.eventStore.replay("s/x", 0)).toEqual([{ seq: 1, frame: "data: 1\n\n" }]);
    const got: unknown[] = [];
    await b.messageBus.subscribe("t", (message) => got.push(message));
    await a.messageBus.publish("t", { n: 1 });
    await until(() => got.length === 1);
    const other = createRedisStores(server.url, { prefix: "other:" });
    await other.ready();
    expect(await other.sessionStore.get("s")).toBeUndefined();
    await Promise.all([a.close(), b.close(), other.close()]);
  });

  it("usedStates accepts a requestState nonce once across the fleet, and forgets it when the state expires", async () => {
    const [a, b] = [createRedisStores(server.url), createRedisStores(server.url)];
    await Promise.all([a.ready(), b.ready()]);
    const expires = Date.now() + 60_000;
    const tries = await Promise.all([a.usedStates.use("n1", expires), b.usedStates.use("n1", expires)]);
    expect(tries.sort()).toEqual([false, true]);
    expect(await a.usedStates.use("n1", expires)).toBe(false);
    await a.usedStates.use("short", Date.now() + 30);
    await until(async () => await b.usedStates.use("short", Date.now() + 60_000));
    await Promise.all([a.close(), b.close()]);
  });

  it("a client you give stays open after close", async () => {
    const yours = new Redis(server.url);
    const stores = createRedisStores(yours);
    await stores.ready();
    await stores.close();
    expect(await yours.ping()).toBe("PONG");
    yours.disconnect();
  });
});
