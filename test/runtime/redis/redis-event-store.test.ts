import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createRedisEventStore } from "../../../generator/runtime/redis/redis-event-store.ts";
import { redisWithClient } from "../../support/redis-fixture.ts";
import { redisMissing } from "../../support/redis-server.ts";

const missing = redisMissing();

const frame = (n: number) => `id: s_${n}\nevent: message\ndata: {"n":${n},"text":"héllo"}\n\n`;

describe.skipIf(missing)("createRedisEventStore against redis-server", () => {
  const redis = redisWithClient();

  it("replays a stream's events after a given number, oldest first, as written; an unknown stream is undefined", async () => {
    const events = createRedisEventStore(redis.client, { prefix: "e1:" });
    for (let n = 1; n <= 4; n++) await events.append("session/stream", n, frame(n));
    expect(await events.replay("session/stream", 2)).toEqual([
      { seq: 3, frame: frame(3) },
      { seq: 4, frame: frame(4) },
    ]);
    expect(await events.replay("session/stream", 4)).toEqual([]);
    expect(await events.replay("session/other", 0)).toBeUndefined();
    expect(await redis.client.type("e1:events:session/stream")).toBe("stream");
  });

  it("keeps the newest maxEventsPerStream events of each stream, and forgets a stream ttlMs after its last event", async () => {
    const events = createRedisEventStore(redis.client, { prefix: "e2:", maxEventsPerStream: 3, ttlMs: 60_000 });
    for (let n = 1; n <= 10; n++) await events.append("s/a", n, frame(n));
    expect((await events.replay("s/a", 0))?.map((event) => event.seq)).toEqual([8, 9, 10]);
    const ttl = await redis.client.pttl("e2:events:s/a");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("drop forgets a stream", async () => {
    const events = createRedisEventStore(redis.client, { prefix: "e3:" });
    await events.append("s/a", 1, frame(1));
    await events.drop("s/a");
    expect(await events.replay("s/a", 0)).toBeUndefined();
  });

  it("fails, rather than waiting, when Redis cannot take the command", async () => {
    const offline = new Redis(redis.server.url, { lazyConnect: true, enableOfflineQueue: false });
    const events = createRedisEventStore(offline, { prefix: "e4:" });
    await expect(events.append("s/a", 1, frame(1))).rejects.toThrow();
    await expect(events.replay("s/a", 0)).rejects.toThrow();
    offline.disconnect();
  });
});
