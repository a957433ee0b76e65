import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "../../../generator/runtime/server/event-store.ts";
import { createMemoryMessageBus, sessionTopics } from "../../../generator/runtime/server/message-bus.ts";
import type { ServerSession, SessionEra } from "../../../generator/runtime/server/server-eras.ts";
import { createSessionManager, type SessionManagerOptions } from "../../../generator/runtime/server/session-manager.ts";
import {
  createMemorySessionStore,
  StoreUnavailableError,
  type SessionRecord,
  type SessionStore,
} from "../../../generator/runtime/server/session-store.ts";
import type { StreamSink } from "../../../generator/runtime/server/sse.ts";

/** An era that records what reaches its sessions; the manager needs no more of it. */
function fakeEra(received: unknown[] = []): SessionEra {
  return {
    kind: "sessions",
    spec: {
      versions: ["2025-11-25"],
      codes: { invalidRequest: -32600, invalidParams: -32602, internalError: -32603 },
      headers: { request: [], response: [] },
      initialize: "initialize",
      createRequester: () => {
        throw new Error("unused");
      },
      batches: false,
      initialized: "notifications/initialized",
    },
    open(id, initialized = false, records): ServerSession {
      let closed = false;
      return {
        info: {
          id,
          state: undefined,
          get record() {
            return id === undefined ? undefined : records?.(id);
          },
        },
        initialized,
        receive(message) {
          received.push(message);
          return (message as { id?: unknown }).id === "mine";
        },
        get pending() {
          return closed ? 0 : 1;
        },
        close() {
          closed = true;
        },
      };
    },
    onBroadcast: () => () => undefined,
    broadcast: () => undefined,
    handle: () => Promise.resolve(undefined),
    handleBatch: () => Promise.resolve(undefined),
  };
}

const record = (subject?: string): SessionRecord => ({
  version: "2025-11-25",
  clientCapabilities: undefined,
  clientInfo: undefined,
  logLevel: undefined,
  subscriptions: [],
  subject,
  initialized: false,
  ready: false,
});

function manager(overrides: Partial<SessionManagerOptions> = {}) {
  let time = 0;
  const options: SessionManagerOptions = {
    store: createMemorySessionStore(() => time),
    events: createMemoryEventStore(),
    bus: createMemoryMessageBus(),
    sharedBus: false,
    sharedStore: false,
    sharedEvents: false,
    idleMs: 1000,
    handshakeMs: 100,
    maxSessions: 3,
    now: () => time,
    report: (error) => {
      throw error;
    },
    ...overrides,
  };
  return { sessions: createSessionManager(options), options, at: (ms: number) => (time = ms) };
}

const era = fakeEra();
const open = (sessions: ReturnType<typeof manager>["sessions"], subject?: string) => {
  const slot = sessions.reserve()!;
  return slot.commit(era.open(slot.id, false, sessions.recordOf), era, record(subject));
};
const sink = (into: string[]): StreamSink => ({ write: (chunk) => into.push(chunk), end: () => into.push("<end>") });

describe("createSessionManager: opening", () => {
  it("counts reserved slots against maxSessions, and a released slot frees its place", () => {
    const { sessions } = manager();
    const slots = [sessions.reserve(), sessions.reserve(), sessions.reserve()];
    expect(slots.every((slot) => slot !== undefined)).toBe(true);
    expect(sessions.reserve()).toBeUndefined();
    slots[0]!.release();
    slots[0]!.release(); // twice is once
    expect(sessions.reserve()).toBeDefined();
    expect(sessions.reserve()).toBeUndefined();
  });

  it("at the limit the oldest session that never finished initializing gives way; initialized ones hold", async () => {
    const { sessions } = manager();
    const [a, b, c] = [await open(sessions), await open(sessions), await open(sessions)];
    await sessions.used(a);
    const d = await open(sessions);
    expect(await sessions.find(era, b.id, undefined)).toBeUndefined();
    expect(await sessions.find(era, c.id, undefined)).toBe(c);
    await sessions.used(c);
    const e = await open(sessions);
    expect(await sessions.find(era, d.id, undefined)).toBeUndefined();
    await sessions.used(e);
    expect(sessions.reserve()).toBeUndefined();
    expect(sessions.size).toBe(3);
  });
});

describe("createSessionManager: finding", () => {
  it("finds a session only for the subject that opened it", async () => {
    const { sessions } = manager();
    const mine = await open(sessions, "alice");
    expect(await sessions.find(era, mine.id, "alice")).toBe(mine);
    expect(await sessions.find(era, mine.id, "mallory")).toBeUndefined();
    expect(await sessions.find(era, mine.id, undefined)).toBeUndefined();
  });

  it("serves a session another instance opened, from the shared store's record", async () => {
    const shared = manager();
    const other = createSessionManager({ ...shared.options });
    const session = await open(shared.sessions, "alice");
    await shared.sessions.used(session);
    const here = await other.find(era, session.id, "alice");
    expect(here?.record).toEqual(session.record);
    expect(here?.core).not.toBe(session.core);
    expect(await other.find(era, "unknown", "alice")).toBeUndefined();
  });
});

describe("createSessionManager: the record's expiry in the store", () => {
  it("a session in steady use keeps its record alive, however short the gaps between its requests", async () => {
    const { sessions, options, at } = manager({ sharedStore: true });
    const session = await open(sessions);
    await sessions.used(session);
    for (let time = 100; time <= 3000; time += 100) {
      at(time);
      await sessions.used(session);
    }
    expect(await options.store.get(session.id)).toBeDefined();
  });

  it("an instance that takes over a session pushes its record's expiry at its first use there", async () => {
    const a = manager({ sharedStore: true });
    const b = createSessionManager({ ...a.options });
    const session = await open(a.sessions);
    await a.sessions.used(session);
    a.at(900); // 100 ms left in the store
    const there = (await b.find(era, session.id, undefined))!;
    await b.used(there);
    a.at(1500);
    expect(await a.options.store.get(session.id)).toBeDefined();
  });
});

describe("createSessionManager: closing with shared stores", () => {
  it("idleness and shutdown close a session here but leave its record and events to a shared store's expiry", async () => {
    const a = manager({ sharedStore: true, sharedEvents: true, maxSessions: 10 });
    const b = createSessionManager({ ...a.options });
    const c = createSessionManager({ ...a.options });
    const idle = await open(a.sessions, "alice");
    const kept = await open(a.sessions, "alice");
    await a.sessions.used(idle);
    await a.sessions.used(kept);
    const stream = a.sessions.standalone(idle)!;
    stream.write({ jsonrpc: "2.0", method: "notifications/message", params: {} });
    a.at(600);
    await a.sessions.used(kept);
    // Instance b serves `idle` from now on, which keeps its record alive in the store.
    const there = (await b.find(era, idle.id, "alice"))!;
    a.at(900);
    await b.used(there);
    a.at(1100);
    a.sessions.sweep(true); // idle here since 0: closed here
    expect(a.sessions.size).toBe(1);
    a.sessions.closeAll(); // the instance shuts down
    a.at(1200);
    expect((await c.find(era, idle.id, "alice"))?.record).toEqual(idle.record);
    expect((await c.find(era, kept.id, "alice"))?.record).toEqual(kept.record);
    expect(await a.options.events.replay(`${idle.id}/${stream.id}`, 0)).toHaveLength(1);
  });

  it("a DELETE (end) forgets the record and events even in a shared store", async () => {
    const shared = manager({ sharedStore: true, sharedEvents: true });
    const session = await open(shared.sessions, "alice");
    await shared.sessions.used(session);
    const stream = shared.sessions.standalone(session)!;
    stream.write({ jsonrpc: "2.0", method: "notifications/message", params: {} });
    await shared.sessions.end(session);
    expect(await shared.options.store.get(session.id)).toBeUndefined();
    expect(await shared.options.events.replay(`${session.id}/${stream.id}`, 0)).toBeUndefined();
  });

  it("without shared stores a closed session's record and events are dropped, so memory holds no orphans", async () => {
    const { sessions, options } = manager();
    const session = await open(sessions);
    await sessions.used(session);
    const stream = sessions.standalone(session)!;
    stream.write({ jsonrpc: "2.0", method: "notifications/message", params: {} });
    sessions.closeAll();
    expect(await options.store.get(session.id)).toBeUndefined();
    expect(await options.events.replay(`${session.id}/${stream.id}`, 0)).toBeUndefined();
  });
});

describe("createSessionManager: expiry", () => {
  it("an uninitialized session expires after handshakeMs, an initialized one after idleMs, a busy one never", async () => {
    const { sessions, at } = manager({ maxSessions: 10 });
    await open(sessions); // never used: uninitialized
    const used = await open(sessions);
    const busy = await open(sessions);
    await sessions.used(used);
    await sessions.used(busy);
    busy.active = 1;
    at(500);
    sessions.sweep(true);
    expect(sessions.size).toBe(2);
    at(2000);
    sessions.sweep(true);
    expect(sessions.size).toBe(1);
    busy.active = 0;
    sessions.sweep(true);
    expect(sessions.size).toBe(0);
  });

  it("closing aborts the session's running handlers, ends its streams and drops its record", async () => {
    const { sessions, options } = manager();
    const session = await open(sessions);
    const controller = new AbortController();
    sessions.run(session, controller);
    const stream = sessions.stream(session);
    sessions.close(session);
    expect([controller.signal.aborted, stream.ended, session.core.pending]).toEqual([true, true, 0]);
    expect(await options.store.get(session.id)).toBeUndefined();
    expect(await options.events.replay(`${session.id}/${stream.id!}`, 0)).toBeUndefined();
  });
});

describe("createSessionManager: ending a session everywhere", () => {
  /** Two instances sharing a store, an event store and a bus, with session `id` live on both. */
  async function pair() {
    const shared = {
      store: createMemorySessionStore(),
      events: createMemoryEventStore(),
      bus: createMemoryMessageBus(),
      sharedBus: true,
    };
    const a = manager(shared);
    const b = manager(shared);
    const opened = await open(a.sessions);
    const there = (await b.sessions.find(era, opened.id, undefined))!;
    expect(there).toBeDefined();
    return { a: a.sessions, b: b.sessions, here: opened, there, bus: shared.bus };
  }

  it("end closes the session here and its live part on every instance the bus reaches", async () => {
    const { a, b, here, there } = await pair();
    const controller = new AbortController();
    b.run(there, controller);
    const stream = b.stream(there);
    await a.end(here);
    expect([a.size, b.size, controller.signal.aborted, stream.ended]).toEqual([0, 0, true, true]);
  });

  it("close (expiry, eviction) stays local: the other instance keeps serving the session", async () => {
    const { a, b, here, there, bus } = await pair();
    const published: unknown[] = [];
    await bus.subscribe(sessionTopics(here.id).closed, (message) => published.push(message));
    a.close(here);
    expect([a.size, b.size, published]).toEqual([0, 1, []]);
    await b.end(there);
  });

  it("with the process's own bus, end publishes nothing", async () => {
    const { sessions, options } = manager();
    const session = await open(sessions);
    const published: unknown[] = [];
    await options.bus.subscribe(sessionTopics(session.id).closed, (message) => published.push(message));
    await sessions.end(session);
    expect([sessions.size, published]).toEqual([0, []]);
  });
});

describe("createSessionManager: a session's record on every instance holding it", () => {
  const setLevel = (level: string) =>
    ({ kind: "request", jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level } }) as const;
  const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

  /** Two instances sharing a store and a bus, with a session opened on the first and served from its record on the second. */
  async function fleet(bus = createMemoryMessageBus()) {
    const shared = { store: createMemorySessionStore(), bus, sharedBus: true, sharedStore: true };
    const a = manager(shared);
    const b = manager(shared);
    const here = await open(a.sessions);
    const there = (await b.sessions.find(era, here.id, undefined))!;
    return { a: a.sessions, b: b.sessions, here, there, store: shared.store };
  }

  it("the era's session reads the record the manager holds, from its commit on", async () => {
    const { sessions } = manager();
    const slot = sessions.reserve()!;
    expect(sessions.recordOf(slot.id)).toBeUndefined();
    const session = await slot.commit(era.open(slot.id, false, sessions.recordOf), era, record());
    await sessions.observe(session, setLevel("error"));
    expect(session.core.info.record?.logLevel).toBe("error");
  });

  it("a change made through one instance reaches the record the other holds, both ways", async () => {
    const { a, b, here, there } = await fleet();
    await a.observe(here, setLevel("error"));
    expect([there.record.logLevel, there.core.info.record?.logLevel]).toEqual(["error", "error"]);
    await b.observe(there, setLevel("debug"));
    expect([here.record.logLevel, here.core.info.record?.logLevel]).toEqual(["debug", "debug"]);
  });

  it("the other instance applies the change as it hears it, without reading the store", async () => {
    const shared = createMemorySessionStore();
    let reads = 0;
    const counted: SessionStore = { ...shared, get: (id) => (reads++, shared.get(id)) };
    const options = { bus: createMemoryMessageBus(), sharedBus: true, sharedStore: true };
    const a = manager({ ...options, store: shared }).sessions;
    const b = manager({ ...options, store: counted }).sessions;
    const here = await open(a);
    const there = (await b.find(era, here.id, undefined))!;
    const before = reads;
    await a.observe(here, {
      kind: "request",
      jsonrpc: "2.0",
      id: 2,
      method: "resources/subscribe",
      params: { uri: "u" },
    });
    await a.observe(here, setLevel("error"));
    expect([reads - before, there.record.logLevel, there.record.subscriptions]).toEqual([0, "error", ["u"]]);
  });

  it("changes made at the same moment through two instances are all kept where the store changes a record in one step", async () => {
    const subscribe = (uri: string) =>
      ({ kind: "request", jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri } }) as const;
    /** The subscriptions stored, and held by each instance, after `x` and `y` are subscribed at once through two. */
    const together = async (store: SessionStore) => {
      const options = { store, bus: createMemoryMessageBus(), sharedBus: true, sharedStore: true };
      const a = manager(options).sessions;
      const b = manager(options).sessions;
      const here = await open(a);
      const there = (await b.find(era, here.id, undefined))!;
      await Promise.all([a.observe(here, subscribe("x")), b.observe(there, subscribe("y"))]);
      const sorted = (uris: readonly string[] | undefined) => [...(uris ?? [])].sort();
      return [(await store.get(here.id))?.subscriptions, here.record.subscriptions, there.record.subscriptions].map(
        sorted,
      );
    };
    // Reads whose answers arrive a turn late: both changes read the record before either is stored.
    const slowReads = (store: SessionStore): SessionStore => ({
      ...store,
      get: (id) => store.get(id).then((record) => settled().then(() => record)),
    });
    // Both stored, and each instance ends with the later of its own result and the change it heard (the revision).
    expect(await together(slowReads(createMemorySessionStore()))).toEqual([
      ["x", "y"],
      ["x", "y"],
      ["x", "y"],
    ]);
    // A store without `update` is read and set in two steps: one of the two is lost, as its documentation says.
    const slow = slowReads(createMemorySessionStore());
    const twoSteps: SessionStore = {
      get: (id) => slow.get(id),
      set: (id, record, ttlMs) => slow.set(id, record, ttlMs),
      touch: (id, ttlMs) => slow.touch(id, ttlMs),
      delete: (id) => slow.delete(id),
    };
    expect((await together(twoSteps))[0]).toHaveLength(1);
  });

  it("an instance whose own change is stored before another's, but answered after it, keeps the later one", async () => {
    const shared = createMemorySessionStore();
    // The other instance's store answers its updates a turn late, after the first instance's change is told.
    const late: SessionStore = {
      ...shared,
      update: (id, change, ttlMs) => shared.update!(id, change, ttlMs).then((r) => settled().then(() => r)),
    };
    const options = { bus: createMemoryMessageBus(), sharedBus: true, sharedStore: true };
    const a = manager({ ...options, store: shared }).sessions;
    const b = manager({ ...options, store: late }).sessions;
    const here = await open(a);
    const there = (await b.find(era, here.id, undefined))!;
    const subscribe = (uri: string) =>
      ({ kind: "request", jsonrpc: "2.0", id: 4, method: "resources/subscribe", params: { uri } }) as const;
    await Promise.all([b.observe(there, subscribe("y")), a.observe(here, subscribe("x"))]);
    expect([there.record.subscriptions, there.record.revision]).toEqual([["y", "x"], 2]);
  });

  it("a change message not of the server's making is reported and changes nothing", async () => {
    const bus = createMemoryMessageBus();
    const errors: unknown[] = [];
    const shared = { store: createMemorySessionStore(), bus, sharedBus: true, sharedStore: true };
    const a = manager({ ...shared, report: (error) => errors.push(error) }).sessions;
    const here = await open(a);
    for (const bad of [{ logLevel: 3, subscriptions: [] }, { logLevel: "error" }, { subscriptions: [1] }])
      await bus.publish(sessionTopics(here.id).changed, { from: "elsewhere", ...bad });
    expect([errors.length, here.record.logLevel, here.record.subscriptions]).toEqual([3, undefined, []]);
  });

  it("a change the other instances cannot be told of is not acknowledged (StoreUnavailableError)", async () => {
    const bus = createMemoryMessageBus();
    const { a, here } = await fleet({ ...bus, publish: () => Promise.reject(new Error("bus down")) });
    await expect(a.observe(here, setLevel("error"))).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("each instance holding the session listens for its changes until it closes it; without a shared store none does", async () => {
    const bus = createMemoryMessageBus();
    const { b, here, there } = await fleet(bus);
    const listeners = () => bus.publish(sessionTopics(here.id).changed, { from: "elsewhere", subscriptions: [] });
    expect(await listeners()).toBe(2);
    b.close(there);
    await settled();
    expect(await listeners()).toBe(1);
    const alone = manager({ bus, sharedBus: true });
    expect(await bus.publish(sessionTopics((await open(alone.sessions)).id).changed, {})).toBe(0);
  });
});

describe("createSessionManager: streams", () => {
  it("a resumption replays from the event store after the given event, runs the stream's onResume, then goes live", async () => {
    const { sessions } = manager();
    const session = await open(sessions);
    let resumed = 0;
    const stream = sessions.stream(session, undefined, () => resumed++);
    const first: string[] = [];
    const gone = sink(first);
    stream.attach(gone);
    for (let n = 1; n <= 3; n++) stream.write({ n });
    stream.detach(gone);
    stream.write({ n: 4 });
    const again = await sessions.resume(session, `${stream.id!}_1`);
    const second: string[] = [];
    again!.attach(sink(second));
    stream.write({ n: 5 });
    expect(resumed).toBe(1);
    expect(second.map((frame) => /"n":(\d)/.exec(frame)?.[1])).toEqual(["2", "3", "4", "5"]);
    expect(await sessions.resume(session, "nope_1")).toBeUndefined();
    expect(await sessions.resume(session, "garbage")).toBeUndefined();
  });

  it("only one standalone stream is held at a time; requests to the client reach it through the bus", async () => {
    const { sessions, options } = manager();
    const session = await open(sessions);
    expect(sessions.fallback(session)).toBeUndefined();
    const standalone = sessions.standalone(session)!;
    const got: string[] = [];
    standalone.attach(sink(got));
    expect(sessions.standalone(session)).toBeUndefined();
    const published: unknown[] = [];
    await options.bus.subscribe(sessionTopics(session.id).stream, (message) => published.push(message));
    sessions.fallback(session)!({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(published).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(got.join("")).toContain('"method":"ping"');
  });

  it("with a shared bus a request to the client is published even with no stream here", async () => {
    const { sessions } = manager({ sharedBus: true });
    expect(sessions.fallback(await open(sessions))).toBeDefined();
  });

  it("a client's answer that no handler here waits for goes on the bus, as plain JSON-RPC", async () => {
    const received: unknown[] = [];
    const local = fakeEra(received);
    const { sessions, options } = manager({ sharedBus: true });
    const slot = sessions.reserve()!;
    const session = await slot.commit(local.open(slot.id), local, record());
    const published: unknown[] = [];
    await options.bus.subscribe(sessionTopics(session.id).answers, (message) => published.push(message));
    await sessions.answer(session, { kind: "result", jsonrpc: "2.0", id: "mine", result: {} });
    expect(published).toEqual([]);
    await sessions.answer(session, { kind: "result", jsonrpc: "2.0", id: "theirs", result: {} });
    expect(published).toEqual([{ jsonrpc: "2.0", id: "theirs", result: {} }]);
  });
});

describe("createSessionManager: state", () => {
  it("records the log level and subscriptions a session's successful requests set", async () => {
    const { sessions, options } = manager();
    const session = await open(sessions);
    const request = (method: string, params: Record<string, unknown>) =>
      sessions.observe(session, { kind: "request", jsonrpc: "2.0", id: 1, method, params });
    await request("logging/setLevel", { level: "debug" });
    await request("resources/subscribe", { uri: "a" });
    await request("resources/subscribe", { uri: "b" });
    await request("resources/unsubscribe", { uri: "a" });
    await request("tools/list", {});
    const stored = await options.store.get(session.id);
    expect([stored?.logLevel, stored?.subscriptions]).toEqual(["debug", ["b"]]);
  });

  it("with a shared store, changes what the stored record holds: what the client did through other instances stays", async () => {
    const a = manager({ sharedStore: true });
    const b = createSessionManager({ ...a.options });
    const session = await open(a.sessions);
    const there = (await b.find(era, session.id, undefined))!;
    const subscribe = (sessions: typeof b, live: typeof there, uri: string) =>
      sessions.observe(live, {
        kind: "request",
        jsonrpc: "2.0",
        id: 1,
        method: "resources/subscribe",
        params: { uri },
      });
    await subscribe(a.sessions, session, "x");
    await subscribe(b, there, "y");
    await a.sessions.used(session, true);
    expect(await a.options.store.get(session.id)).toMatchObject({ subscriptions: ["x", "y"], ready: true });
  });

  it("counts a session ready once its client sent notifications/initialized, not at its first use", async () => {
    const { sessions, options } = manager();
    const session = await open(sessions);
    await sessions.used(session);
    expect(await options.store.get(session.id)).toMatchObject({ initialized: true, ready: false });
    await sessions.used(session, true);
    expect(await options.store.get(session.id)).toMatchObject({ initialized: true, ready: true });
  });
});

describe("createSessionManager: broadcasts", () => {
  it("with a shared store, picks the sessions whose stream it holds by their stored record, which other instances change", async () => {
    const a = manager({ sharedStore: true });
    const b = createSessionManager({ ...a.options });
    const session = await open(a.sessions);
    const there = (await b.find(era, session.id, undefined))!;
    const got: string[] = [];
    b.standalone(there)!.attach(sink(got));
    const wantsReady = (_core: unknown, stored?: SessionRecord) => stored?.ready === true;
    // The store read settles before a macrotask runs.
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    b.broadcast({ n: 1 }, wantsReady);
    await settled();
    await a.sessions.used(session, true);
    b.broadcast({ n: 2 }, wantsReady);
    await settled();
    expect(got.join("")).not.toContain('"n":1');
    expect(got.join("")).toContain('"n":2');
  });
});
