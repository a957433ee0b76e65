import { describe, expect, it } from "vitest";
import { createMemoryMessageBus, sessionTopics } from "../../../generator/runtime/server/message-bus.ts";

describe("createMemoryMessageBus", () => {
  it("delivers to every subscriber of a topic and counts them; unsubscribing stops delivery", async () => {
    const bus = createMemoryMessageBus();
    const got: unknown[] = [];
    const off = await bus.subscribe("t", (message) => got.push(["one", message]));
    await bus.subscribe("t", (message) => got.push(["two", message]));
    await bus.subscribe("elsewhere", (message) => got.push(["no", message]));
    expect(await bus.publish("t", { n: 1 })).toBe(2);
    await off();
    expect(await bus.publish("t", { n: 2 })).toBe(1);
    expect(await bus.publish("nobody", { n: 3 })).toBe(0);
    expect(got).toEqual([
      ["one", { n: 1 }],
      ["two", { n: 1 }],
      ["two", { n: 2 }],
    ]);
  });

  it("a subscriber that throws is reported and keeps no one else from the message", async () => {
    const errors: unknown[] = [];
    const bus = createMemoryMessageBus((error) => errors.push(error));
    const got: unknown[] = [];
    await bus.subscribe("t", () => {
      throw new Error("boom");
    });
    await bus.subscribe("t", (message) => got.push(message));
    expect(await bus.publish("t", { n: 1 })).toBe(2);
    expect([got, errors.length]).toEqual([[{ n: 1 }], 1]);
  });

  it("gives each session its own topics", () => {
    const a = sessionTopics("a");
    const b = sessionTopics("b");
    expect(new Set([a.stream, a.answers, a.closed, a.changed, b.stream, b.answers, b.closed, b.changed]).size).toBe(8);
  });
});
