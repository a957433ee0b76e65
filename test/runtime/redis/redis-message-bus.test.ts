import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisMessageBus } from "../../../generator/runtime/redis/redis-message-bus.ts";
import type { MessageBus } from "../../../generator/runtime/server/message-bus.ts";
import { redisMissing, startRedis, until, type RedisServer } from "../../support/redis-server.ts";

const missing = redisMissing();

describe.skipIf(missing)("createRedisMessageBus against redis-server", () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  const connect = (): Redis => {
    const client = new Redis(server.url, { retryStrategy: () => 20 });
    client.on("error", () => undefined);
    clients.push(client);
    return client;
  };
  /** One instance's bus: its command connection and its own subscriber. */
  const instance = (errors: unknown[] = []): MessageBus =>
    createRedisMessageBus(connect(), connect(), { prefix: "b:", onError: (error) => errors.push(error) });

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await server.stop();
  });

  it("a message published on one instance reaches every subscriber of its topic on the others, as JSON", async () => {
    const [a, b, c] = [instance(), instance(), instance()];
    const got: unknown[] = [];
    const offB = await b.subscribe("t", (message) => got.push(["b", message]));
    await c.subscribe("t", (message) => got.push(["c1", message]));
    await c.subscribe("t", (message) => got.push(["c2", message]));
    await c.subscribe("other", (message) => got.push(["other", message]));
    // PUBLISH counts the instances (subscriber connections) that took it.
    expect(await a.publish("t", { jsonrpc: "2.0", method: "ping", params: { é: 1 } })).toBe(2);
    await until(() => got.length === 3);
    expect(got).toEqual(
      expect.arrayContaining([
        ["b", { jsonrpc: "2.0", method: "ping", params: { é: 1 } }],
        ["c1", { jsonrpc: "2.0", method: "ping", params: { é: 1 } }],
        ["c2", { jsonrpc: "2.0", method: "ping", params: { é: 1 } }],
      ]),
    );
    await offB();
    expect(await a.publish("t", { n: 2 })).toBe(1);
    expect(await a.publish("nobody", { n: 3 })).toBe(0);
  });

  it("a listener that throws, or a message that is not a JSON object, is reported and keeps nothing from the others", async () => {
    const errors: unknown[] = [];
    const [a, b] = [instance(), instance(errors)];
    const got: unknown[] = [];
    await b.subscribe("x", () => {
      throw new Error("listener bug");
    });
    await b.subscribe("x", (message) => got.push(message));
    await connect().publish("b:bus:x", "{not json");
    await a.publish("x", { n: 1 });
    await until(() => got.length === 1);
    expect(got).toEqual([{ n: 1 }]);
    expect(errors.map((error) => (error as Error).constructor.name)).toEqual(["SyntaxError", "Error"]);
  });

  it("a subscription made while Redis is away takes effect once it is back, and earlier ones are held again", async () => {
    const [a, b] = [instance(), instance()];
    const got: unknown[] = [];
    await b.subscribe("before", (message) => got.push(message));
    await server.stop();
    await b.subscribe("during", (message) => got.push(message));
    await server.start();
    await until(async () => (await a.publish("during", { n: 1 }).catch(() => 0)) === 1);
    await until(async () => (await a.publish("before", { n: 2 }).catch(() => 0)) === 1);
    await until(() => got.length >= 2);
    expect(got).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
  });
});
