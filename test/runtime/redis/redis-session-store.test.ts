import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createRedisSessionStore } from "../../../generator/runtime/redis/redis-session-store.ts";
import type { SessionRecord } from "../../../generator/runtime/server/session-store.ts";
import { redisWithClient } from "../../support/redis-fixture.ts";
import { redisMissing, until } from "../../support/redis-server.ts";

const missing = redisMissing();

const record: SessionRecord = {
  version: "2025-11-25",
  clientCapabilities: { elicitation: {} },
  clientInfo: { name: "c", version: "1" },
  logLevel: "debug",
  subscriptions: ["file:///a"],
  subject: "alice",
  initialized: true,
  ready: true,
};

describe.skipIf(missing)("createRedisSessionStore against redis-server", () => {
  const redis = redisWithClient();

  it("keeps a record as one JSON key under the prefix, and reads back what it stored", async () => {
    const store = createRedisSessionStore(redis.client, { prefix: "t1:" });
    await store.set("s1", record, 60_000);
    expect(await store.get("s1")).toEqual(record);
    expect(JSON.parse((await redis.client.get("t1:session:s1"))!)).toEqual(record);
    expect(await store.get("nope")).toBeUndefined();
  });

  it("the record's TTL is the idle expiry: touch pushes it, and Redis forgets a record nobody touched", async () => {
    const store = createRedisSessionStore(redis.client, { prefix: "t2:" });
    await store.set("s", record, 100);
    expect(await redis.client.pttl("t2:session:s")).toBeLessThanOrEqual(100);
    expect(await store.touch("s", 60_000)).toBe(true);
    expect(await redis.client.pttl("t2:session:s")).toBeGreaterThan(100);
    await store.set("gone", record, 30);
    await until(async () => (await redis.client.exists("t2:session:gone")) === 0);
    expect(await store.get("gone")).toBeUndefined();
    expect(await store.touch("gone", 60_000)).toBe(false);
  });

  it("delete forgets a record; a key holding anything but a record reads as no session", async () => {
    const store = createRedisSessionStore(redis.client, { prefix: "t3:" });
    await store.set("s", record, 60_000);
    await store.delete("s");
    expect(await store.get("s")).toBeUndefined();
    await redis.client.set("t3:session:junk", "{not json");
    await redis.client.set("t3:session:other", JSON.stringify({ ...record, subscriptions: "all" }));
    expect(await store.get("junk")).toBeUndefined();
    expect(await store.get("other")).toBeUndefined();
  });

  it("update changes a record in one step: concurrent changes through two clients all land", async () => {
    const other = new Redis(redis.server.url);
    try {
      const one = createRedisSessionStore(redis.client, { prefix: "t5:" });
      const two = createRedisSessionStore(other, { prefix: "t5:" });
      await one.set("s", { ...record, subscriptions: [] }, 60_000);
      // Each change reads, then yields before it is stored: a read-then-set would lose most of them.
      const subscribe = (store: typeof one, uri: string) =>
        store.update!(
          "s",
          (r) => ({ ...r, subscriptions: [...r.subscriptions, uri] }),
          () => 60_000,
        );
      const uris = Array.from({ length: 12 }, (_, i) => `file:///${i}`);
      await Promise.all(uris.map((uri, i) => subscribe(i % 2 === 0 ? one : two, uri)));
      expect([...(await one.get("s"))!.subscriptions].sort()).toEqual([...uris].sort());
      expect(await redis.client.pttl("t5:session:s")).toBeGreaterThan(1000);
      expect(
        await one.update!(
          "none",
          (r) => r,
          () => 60_000,
        ),
      ).toBeUndefined();
      expect(await redis.client.exists("t5:session:none")).toBe(0);
    } finally {
      other.disconnect();
    }
  });

  it("update stores with the TTL of the changed record, and fails after losing every race", async () => {
    const store = createRedisSessionStore(redis.client, { prefix: "t6:" });
    await store.set("s", { ...record, initialized: false }, 60_000);
    const changed = await store.update!(
      "s",
      (r) => ({ ...r, initialized: true }),
      (r) => (r.initialized ? 200 : 60_000),
    );
    expect(changed?.initialized).toBe(true);
    expect(await redis.client.pttl("t6:session:s")).toBeLessThanOrEqual(200);
    await store.set("busy", record, 60_000);
    let calls = 0;
    // Another writer changes the record between every read and its compare-and-set.
    const racing = store.update!(
      "busy",
      (r) => {
        calls++;
        void redis.client.set("t6:session:busy", JSON.stringify({ ...r, logLevel: `x${calls}` }));
        return { ...r, logLevel: "mine" };
      },
      () => 60_000,
    );
    await expect(racing).rejects.toThrow(/changed under 16 updates in a row/);
    expect(calls).toBe(16);
  });

  it("reads a record written before `ready` was kept as ready once its redis.client came back", async () => {
    const store = createRedisSessionStore(redis.client, { prefix: "t4:" });
    const { ready: _ready, ...older } = record;
    await redis.client.set("t4:session:used", JSON.stringify(older));
    await redis.client.set("t4:session:fresh", JSON.stringify({ ...older, initialized: false }));
    await redis.client.set("t4:session:odd", JSON.stringify({ ...record, ready: "yes" }));
    expect(await store.get("used")).toEqual({ ...older, ready: true });
    expect(await store.get("fresh")).toEqual({ ...older, initialized: false, ready: false });
    expect(await store.get("odd")).toBeUndefined();
  });

  it("keeps a record's revision, and reads one whose revision is no whole number as no session", async () => {
    const store = createRedisSessionStore(redis.client, { prefix: "t7:" });
    await store.set("s", { ...record, revision: 3 }, 60_000);
    expect(await store.get("s")).toEqual({ ...record, revision: 3 });
    await redis.client.set("t7:session:odd", JSON.stringify({ ...record, revision: 1.5 }));
    expect(await store.get("odd")).toBeUndefined();
  });
});
