import { describe, expect, it } from "vitest";
import { createMemorySessionStore, type SessionRecord } from "../../../generator/runtime/server/session-store.ts";

const record: SessionRecord = {
  version: "2025-11-25",
  clientCapabilities: { roots: {} },
  clientInfo: { name: "c", version: "1" },
  logLevel: undefined,
  subscriptions: [],
  subject: "alice",
  initialized: true,
  ready: true,
};

describe("createMemorySessionStore", () => {
  it("keeps a record until its idle time passes without a touch", async () => {
    let time = 0;
    const store = createMemorySessionStore(() => time);
    await store.set("a", record, 100);
    time = 90;
    expect(await store.touch("a", 100)).toBe(true);
    time = 180;
    expect(await store.get("a")).toEqual(record);
    time = 291;
    expect(await store.get("a")).toBeUndefined();
    expect(await store.touch("a", 100)).toBe(false);
  });

  it("holds records that survive JSON: what a shared store would keep", async () => {
    const store = createMemorySessionStore();
    await store.set("a", record, 1000);
    const got = await store.get("a");
    expect(JSON.parse(JSON.stringify(got))).toEqual(JSON.parse(JSON.stringify(record)));
    await store.delete("a");
    expect(await store.get("a")).toBeUndefined();
  });

  it("update changes a record in one step, stored with the changed record's TTL; none for a missing session", async () => {
    let time = 0;
    const store = createMemorySessionStore(() => time);
    await store.set("a", { ...record, initialized: false }, 100);
    const changed = await store.update!(
      "a",
      (r) => ({ ...r, initialized: true }),
      (r) => (r.initialized ? 1000 : 100),
    );
    expect(changed).toEqual(record);
    time = 500;
    expect(await store.get("a")).toEqual(record);
    expect(
      await store.update!(
        "b",
        (r) => r,
        () => 1000,
      ),
    ).toBeUndefined();
    expect(await store.get("b")).toBeUndefined();
  });
});
