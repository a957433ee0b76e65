import { describe, expect, it } from "vitest";
import { createMemoryEventStore, utf8Length } from "../../../generator/runtime/server/event-store.ts";

describe("createMemoryEventStore", () => {
  it("replays a stream's events after an event number, oldest first; an unknown stream is undefined", async () => {
    const store = createMemoryEventStore();
    for (let seq = 1; seq <= 5; seq++) await store.append("s", seq, `frame ${seq}`);
    await store.append("other", 1, "elsewhere");
    expect((await store.replay("s", 3))?.map((event) => event.seq)).toEqual([4, 5]);
    expect(await store.replay("s", 5)).toEqual([]);
    expect(await store.replay("nope", 0)).toBeUndefined();
    await store.drop("s");
    expect(await store.replay("s", 0)).toBeUndefined();
    expect(await store.replay("other", 0)).toEqual([{ seq: 1, frame: "elsewhere" }]);
  });

  it("keeps at most maxBytesPerStream bytes of UTF-8 per stream, dropping the oldest", async () => {
    const store = createMemoryEventStore({ maxBytesPerStream: 10 });
    await store.append("s", 1, "aaaa");
    await store.append("s", 2, "é".repeat(2)); // 4 bytes, 2 characters
    await store.append("s", 3, "bbbb");
    expect((await store.replay("s", 0))?.map((event) => event.seq)).toEqual([2, 3]);
    await store.append("s", 4, "x".repeat(11));
    expect(await store.replay("s", 0)).toEqual([]);
  });

  it("stays bounded over many appends to one stream", async () => {
    const store = createMemoryEventStore({ maxBytesPerStream: 1000 });
    for (let seq = 1; seq <= 10_000; seq++) await store.append("s", seq, "x".repeat(100));
    const kept = (await store.replay("s", 0))!;
    expect(kept.map((event) => event.seq)).toEqual([9991, 9992, 9993, 9994, 9995, 9996, 9997, 9998, 9999, 10000]);
  });
});

describe("utf8Length", () => {
  it.each(["", "ascii", "é", "€", "😀", "a😀é€"])("%j agrees with TextEncoder", (text) => {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
  });
});
