// createHttpHandler as the composition of the transport's parts, driven through `handler.fetch`: the request
// gate and the identity handlers see, cancellation scoped to its caller, sessions held to their limit and
// their owner, resumption that keeps a request running, and two instances sharing a store and a bus.
import { afterEach, describe, expect, it } from "vitest";
import {
  createHttpHandler,
  createMemoryEventStore,
  createMemoryMessageBus,
  createMemorySessionStore,
  sessionTopics,
  type EventStore,
  type HttpHandler,
  type HttpServerOptions,
  type MessageBus,
  type SessionStore,
} from "../../../generated/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";

const URL_ = "http://127.0.0.1/mcp";
const BASE = { host: "127.0.0.1", "content-type": "application/json", accept: "application/json, text/event-stream" };
const META = {
  [modern.MetaKey.protocolVersion]: "2026-07-28",
  [modern.MetaKey.clientCapabilities]: {},
};

/** What the handlers saw: each call's signal and identity by tool name, and a way to finish `hang`. */
interface Probe {
  readonly signals: Map<string, AbortSignal>;
  readonly identities: unknown[];
  readonly release: Array<() => void>;
}

function probe(): Probe {
  return { signals: new Map(), identities: [], release: [] };
}

/** A tool that reports progress (so its reply is a stream), then waits until released or aborted. */
async function hang(signal: AbortSignal, release: Array<() => void>): Promise<void> {
  await new Promise<void>((resolve) => {
    release.push(resolve);
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function eras(seen: Probe) {
  const stateless = modern.statelessEra({
    "tools/call": async (params, ctx) => {
      seen.identities.push(ctx.context.identity);
      seen.signals.set(params.name, ctx.signal);
      if (params.name.startsWith("hang")) {
        ctx.progress?.({ progress: 1 });
        await hang(ctx.signal, seen.release);
      }
      return { content: [{ type: "text", text: ctx.context.identity?.subject ?? "anonymous" }] };
    },
  });
  const sessions = legacy.sessionEra({
    initialize: () => ({
      protocolVersion: legacy.PROTOCOL_VERSION,
      capabilities: { tools: {} },
      serverInfo: { name: "s", version: "1" },
    }),
    "tools/call": async (params, ctx) => {
      seen.identities.push(ctx.context.identity);
      seen.signals.set(params.name, ctx.signal);
      if (params.name.startsWith("hang")) {
        ctx.progress?.({ progress: 1 });
        await hang(ctx.signal, seen.release);
        return { content: [{ type: "text", text: "released" }] };
      }
      if (params.name === "elicit") {
        const answer = await ctx.context.request(
          "elicitation/create",
          { message: "ok?", requestedSchema: { type: "object", properties: {} } },
          { signal: ctx.signal },
        );
        return { content: [{ type: "text", text: "action" in answer ? answer.action : "task" }] };
      }
      return { content: [{ type: "text", text: params.name }] };
    },
  });
  return { stateless, sessions };
}

let opened: HttpHandler[] = [];
afterEach(() => {
  for (const handler of opened) handler.close();
  opened = [];
});

function serve(seen: Probe, options: Partial<HttpServerOptions> = {}): HttpHandler {
  const handler = createHttpHandler({ ...eras(seen), path: "/mcp", ...options });
  opened.push(handler);
  return handler;
}

function post(handler: HttpHandler, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return handler.fetch(
    new Request(URL_, { method: "POST", headers: { ...BASE, ...headers }, body: JSON.stringify(body) }),
  );
}

function send(handler: HttpHandler, method: string, headers: Record<string, string>): Promise<Response> {
  return handler.fetch(new Request(URL_, { method, headers: { ...BASE, ...headers } }));
}

const modernHeaders = (method: string, name?: string) => ({
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name }),
});
const modernCall = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {}, _meta: { ...META, progressToken: "p" } },
});
const cancel = (requestId: number) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId, _meta: META },
});
const legacyCall = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {}, _meta: { progressToken: "p" } },
});
const initializeBody = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
};
const inSession = (id: string) => ({ "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

/** A session opened and initialized as a well-behaved client does it. */
async function openSession(handler: HttpHandler, headers: Record<string, string> = {}): Promise<string> {
  const reply = await post(handler, initializeBody, headers);
  expect(reply.status).toBe(200);
  const id = reply.headers.get("mcp-session-id")!;
  const done = await post(
    handler,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { ...headers, ...inSession(id) },
  );
  expect(done.status).toBe(202);
  return id;
}

/** The messages of an SSE text, with their event ids. */
function events(text: string): { id?: string; data: unknown }[] {
  return text
    .split("\n\n")
    .filter((block) => block.includes("data:"))
    .map((block) => {
      const lines = block.split("\n");
      const id = lines.find((line) => line.startsWith("id: "))?.slice(4);
      const data: unknown = JSON.parse(lines.find((line) => line.startsWith("data: "))!.slice(6));
      return id === undefined ? { data } : { id, data };
    });
}

/** A gate that takes `Authorization: Bearer <name>` as the subject `<name>` and refuses anything else with 401. */
const bearer: HttpServerOptions["authorize"] = ({ headers }) => {
  const token = /^Bearer (\w+)$/.exec(String(headers["authorization"] ?? ""))?.[1];
  if (token === undefined)
    return new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer realm="mcp"' } });
  return { subject: token, scopes: ["read"] };
};
const as = (name: string) => ({ authorization: `Bearer ${name}` });

describe("the request gate", () => {
  it("hands the identity it returns to handlers in both eras, and sends its refusal instead of an answer", async () => {
    const seen = probe();
    const handler = serve(seen, { authorize: bearer });
    const refused = await post(handler, modernCall(1, "x"), modernHeaders("tools/call", "x"));
    expect([refused.status, refused.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="mcp"']);
    expect(seen.identities).toEqual([]);

    const answered = await post(
      handler,
      { ...modernCall(1, "x"), params: { name: "x", _meta: META } },
      {
        ...modernHeaders("tools/call", "x"),
        ...as("alice"),
      },
    );
    expect(await answered.json()).toMatchObject({ result: { content: [{ text: "alice" }] } });
    const session = await openSession(handler, as("bob"));
    await post(handler, legacyCall(2, "y"), { ...inSession(session), ...as("bob") });
    expect(seen.identities).toEqual([
      { subject: "alice", scopes: ["read"] },
      { subject: "bob", scopes: ["read"] },
    ]);
  });

  it("a gate that throws refuses the request with a bare 500 and tells onError", async () => {
    const errors: unknown[] = [];
    const handler = serve(probe(), {
      authorize: () => {
        throw new Error("token store down: secret-123");
      },
      onError: (error) => errors.push(error),
    });
    const reply = await post(handler, modernCall(1, "x"), modernHeaders("tools/call", "x"));
    expect(reply.status).toBe(500);
    expect(await reply.text()).not.toContain("secret");
    expect(errors).toHaveLength(1);
  });

  it("a session belongs to the identity that opened it: another one gets 404 on it, for POST, GET and DELETE", async () => {
    const handler = serve(probe(), { authorize: bearer });
    const session = await openSession(handler, as("alice"));
    const foreign = { ...inSession(session), ...as("mallory") };
    expect((await post(handler, legacyCall(1, "x"), foreign)).status).toBe(404);
    expect((await send(handler, "GET", { ...foreign, accept: "text/event-stream" })).status).toBe(404);
    expect((await send(handler, "DELETE", foreign)).status).toBe(404);
    expect(handler.sessions).toBe(1);
    expect((await post(handler, legacyCall(2, "x"), { ...inSession(session), ...as("alice") })).status).toBe(200);
  });
});

describe("cancellation is scoped to the caller (stateless)", () => {
  it("without a gate, a cancel POST reaches no other request, whoever numbered theirs alike", async () => {
    const seen = probe();
    const handler = serve(seen);
    const first = await post(handler, modernCall(1, "hang-a"), modernHeaders("tools/call", "hang-a"));
    const reader = first.body!.getReader();
    await reader.read();
    const note = await post(handler, cancel(1), modernHeaders("notifications/cancelled"));
    expect(note.status).toBe(202);
    await settle();
    expect(seen.signals.get("hang-a")?.aborted).toBe(false);
    // Closing the request's own stream is what cancels it (2026-07-28 basic/transports).
    await reader.cancel();
    await settle();
    expect(seen.signals.get("hang-a")?.aborted).toBe(true);
  });

  it("with a gate, a cancel reaches its own identity's request of that id and no other's", async () => {
    const seen = probe();
    const handler = serve(seen, { authorize: bearer });
    const alice = await post(handler, modernCall(1, "hang-alice"), {
      ...modernHeaders("tools/call", "hang-alice"),
      ...as("alice"),
    });
    const bob = await post(handler, modernCall(1, "hang-bob"), {
      ...modernHeaders("tools/call", "hang-bob"),
      ...as("bob"),
    });
    await alice.body!.getReader().read();
    await bob.body!.getReader().read();
    await post(handler, cancel(1), { ...modernHeaders("notifications/cancelled"), ...as("bob") });
    await settle();
    expect(seen.signals.get("hang-bob")?.aborted).toBe(true);
    expect(seen.signals.get("hang-alice")?.aborted).toBe(false);
  });
});

describe("2025 sessions: requests outlive what they should, and no longer", () => {
  it("a reconnect with Last-Event-ID inside the resume window keeps the request running past the window", async () => {
    const seen = probe();
    const handler = serve(seen, { resumeWindowMs: 40 });
    const session = await openSession(handler);
    const reply = await post(handler, legacyCall(5, "hang"), inSession(session));
    const reader = reply.body!.getReader();
    const first = events(new TextDecoder().decode((await reader.read()).value));
    await reader.cancel();
    await settle(5);
    const resumed = await send(handler, "GET", { ...inSession(session), "last-event-id": first[0]!.id! });
    expect(resumed.status).toBe(200);
    await settle(120);
    expect(seen.signals.get("hang")?.aborted).toBe(false);
    seen.release.forEach((release) => release());
    const rest = events(await resumed.text());
    expect(rest.at(-1)?.data).toMatchObject({ id: 5, result: { content: [{ text: "released" }] } });
    expect(handler.pending).toBe(0);
  });

  it("DELETE of a session aborts its running handlers", async () => {
    const seen = probe();
    const handler = serve(seen);
    const session = await openSession(handler);
    const reply = await post(handler, legacyCall(5, "hang"), inSession(session));
    await reply.body!.getReader().read();
    expect((await send(handler, "DELETE", inSession(session))).status).toBe(204);
    expect(seen.signals.get("hang")?.aborted).toBe(true);
    await settle();
    expect([handler.sessions, handler.pending]).toEqual([0, 0]);
  });

  it("idle expiry spares a session with a request in flight, and takes it once the request is done", async () => {
    let time = 0;
    const seen = probe();
    const handler = serve(seen, { sessionIdleMs: 1000, now: () => time });
    const busy = await openSession(handler);
    const other = await openSession(handler);
    const reply = await post(handler, legacyCall(1, "hang"), inSession(busy));
    const reader = reply.body!.getReader();
    await reader.read();
    // Requests on another session drive the sweep long past the busy one's idle time.
    for (time = 800; time <= 4000; time += 800)
      expect((await post(handler, legacyCall(2, "x"), inSession(other))).status).toBe(200);
    expect(handler.sessions).toBe(2);
    expect(seen.signals.get("hang")?.aborted).toBe(false);
    seen.release.forEach((release) => release());
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(events(rest).at(-1)?.data).toMatchObject({ id: 1, result: { content: [{ text: "released" }] } });
    for (time = 4800; time <= 5600; time += 800)
      expect((await post(handler, legacyCall(3, "x"), inSession(other))).status).toBe(200);
    expect((await post(handler, legacyCall(4, "x"), inSession(busy))).status).toBe(404);
  });
});

describe("2025 sessions: limits that hold", () => {
  it("maxSessions holds under 200 concurrent initialize calls", async () => {
    const handler = serve(probe(), { maxSessions: 5 });
    let most = 0;
    const replies = await Promise.all(
      Array.from({ length: 200 }, () =>
        post(handler, initializeBody).then((reply) => {
          most = Math.max(most, handler.sessions);
          return reply;
        }),
      ),
    );
    expect(most).toBeLessThanOrEqual(5);
    expect(handler.sessions).toBeLessThanOrEqual(5);
    const ids = replies.map((reply) => reply.headers.get("mcp-session-id")).filter((id) => id !== null);
    const usable = await Promise.all(
      ids.map(async (id) => (await post(handler, legacyCall(1, "x"), inSession(id))).status),
    );
    expect(usable.filter((status) => status === 200).length).toBeLessThanOrEqual(5);
  });

  it("after a flood of 10,000 bare initialize calls a well-behaved client still opens a session", async () => {
    const handler = serve(probe());
    const body = JSON.stringify(initializeBody);
    const exchange = () => ({
      method: "POST",
      path: "/mcp",
      headers: BASE,
      body: () => Promise.resolve(body),
      signal: new AbortController().signal,
    });
    for (let i = 0; i < 10_000; i += 500)
      await Promise.all(Array.from({ length: 500 }, () => handler.serve(exchange())));
    expect(handler.sessions).toBe(10_000);
    const session = await openSession(handler);
    expect(await (await post(handler, legacyCall(1, "x"), inSession(session))).json()).toMatchObject({
      result: { content: [{ text: "x" }] },
    });
    expect(handler.sessions).toBe(10_000);
  });

  it("a session whose client never finishes initializing expires after handshakeMs", async () => {
    let time = 0;
    const handler = serve(probe(), { handshakeMs: 1000, now: () => time });
    const bare = (await post(handler, initializeBody)).headers.get("mcp-session-id")!;
    const good = await openSession(handler);
    time = 2000;
    expect((await post(handler, legacyCall(1, "x"), inSession(good))).status).toBe(200);
    expect((await post(handler, legacyCall(2, "x"), inSession(bare))).status).toBe(404);
  });

  it("replay keeps at most replayBytes per stream: a late resume gets the newest events only", async () => {
    const seen = probe();
    const handler = createHttpHandler({
      ...eras(seen),
      sessions: legacy.sessionEra({
        initialize: () => ({
          protocolVersion: legacy.PROTOCOL_VERSION,
          capabilities: {},
          serverInfo: { name: "s", version: "1" },
        }),
        "tools/call": (_params, ctx) => {
          for (let progress = 1; progress <= 50; progress++) ctx.progress?.({ progress, message: "x".repeat(100) });
          return { content: [] };
        },
      }),
      replayBytes: 2000,
    });
    opened.push(handler);
    const session = await openSession(handler);
    const all = events(await (await post(handler, legacyCall(1, "many"), inSession(session))).text());
    expect(all).toHaveLength(51);
    const replayed = events(
      await (await send(handler, "GET", { ...inSession(session), "last-event-id": all[0]!.id! })).text(),
    );
    const bytes = replayed.reduce((sum, event) => sum + JSON.stringify(event.data).length, 0);
    expect(bytes).toBeLessThanOrEqual(2000);
    expect(replayed.length).toBeGreaterThan(0);
    expect(replayed.map((event) => event.id)).toEqual(all.slice(-replayed.length).map((event) => event.id));
  });
});

describe("two instances sharing a SessionStore, an EventStore and a MessageBus", () => {
  it("a session opened on one is served by the other, and a client's answer POSTed there reaches the waiting handler", async () => {
    const shared = {
      sessionStore: createMemorySessionStore(),
      eventStore: createMemoryEventStore(),
      messageBus: createMemoryMessageBus(),
    };
    const a = serve(probe(), shared);
    const b = serve(probe(), shared);
    const session = await openSession(a);
    expect(await (await post(b, legacyCall(1, "on-b"), inSession(session))).json()).toMatchObject({
      result: { content: [{ text: "on-b" }] },
    });
    const reply = await post(a, legacyCall(2, "elicit"), inSession(session));
    const reader = reply.body!.getReader();
    const asked = events(new TextDecoder().decode((await reader.read()).value))[0]!.data as { id: number };
    expect(
      (await post(b, { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: {} } }, inSession(session)))
        .status,
    ).toBe(202);
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(events(rest).at(-1)?.data).toMatchObject({ id: 2, result: { content: [{ text: "accept" }] } });
  });

  it("a handler's request to a JSON-only client goes out on the GET stream the client holds on the other instance", async () => {
    const shared = {
      sessionStore: createMemorySessionStore(),
      eventStore: createMemoryEventStore(),
      messageBus: createMemoryMessageBus(),
    };
    const a = serve(probe(), shared);
    const b = serve(probe(), shared);
    const session = await openSession(a);
    const stream = await send(b, "GET", { ...inSession(session), accept: "text/event-stream" });
    expect(stream.status).toBe(200);
    const replied = post(a, legacyCall(3, "elicit"), { ...inSession(session), accept: "application/json" });
    const reader = stream.body!.getReader();
    const asked = events(new TextDecoder().decode((await reader.read()).value))[0]!.data as {
      id: number;
      method: string;
    };
    expect(asked.method).toBe("elicitation/create");
    await post(b, { jsonrpc: "2.0", id: asked.id, result: { action: "decline" } }, inSession(session));
    expect(await (await replied).json()).toMatchObject({ id: 3, result: { content: [{ text: "decline" }] } });
    await reader.cancel();
  });

  it("the shared record says a session is ready once its client sent notifications/initialized, not at its first use", async () => {
    const sessionStore = createMemorySessionStore();
    const a = serve(probe(), { sessionStore });
    const opened = await post(a, initializeBody);
    const session = inSession(opened.headers.get("mcp-session-id")!);
    expect((await post(a, { jsonrpc: "2.0", id: 1, method: "ping" }, session)).status).toBe(200);
    const id = session["mcp-session-id"];
    expect(await sessionStore.get(id)).toMatchObject({ initialized: true, ready: false });
    expect((await post(a, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
    expect(await sessionStore.get(id)).toMatchObject({ ready: true });
  });

  it("a notification published on the bus under a session's stream topic reaches the GET stream its client holds", async () => {
    const messageBus = createMemoryMessageBus();
    const handler = serve(probe(), { messageBus });
    const session = await openSession(handler);
    const stream = await send(handler, "GET", { ...inSession(session), accept: "text/event-stream" });
    const note = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
    expect(await messageBus.publish(sessionTopics(session).stream, note)).toBe(1);
    const reader = stream.body!.getReader();
    expect(events(new TextDecoder().decode((await reader.read()).value)).map((event) => event.data)).toEqual([note]);
    await reader.cancel();
  });
});

describe("two instances sharing a bus: DELETE reaches the session everywhere", () => {
  it("DELETE on one instance aborts the session's handlers and ends its GET stream on the other, which then answers 404", async () => {
    const shared = {
      sessionStore: createMemorySessionStore(),
      eventStore: createMemoryEventStore(),
      messageBus: createMemoryMessageBus(),
    };
    const seenA = probe();
    const seenB = probe();
    const a = serve(seenA, shared);
    const b = serve(seenB, shared);
    const session = await openSession(a);
    const stream = await send(b, "GET", { ...inSession(session), accept: "text/event-stream" });
    expect(stream.status).toBe(200);
    const running = await post(b, legacyCall(1, "hang"), inSession(session));
    const reader = running.body!.getReader();
    await reader.read();
    expect((await send(a, "DELETE", inSession(session))).status).toBe(204);
    await settle();
    expect(seenB.signals.get("hang")?.aborted).toBe(true);
    expect(await stream.text()).toBe("");
    expect((await post(b, legacyCall(2, "x"), inSession(session))).status).toBe(404);
    expect([b.sessions, b.pending]).toEqual([0, 0]);
    await reader.cancel();
  });
});

describe("shared stores that fail (Redis away or restarting)", () => {
  /** A store, an event store and a bus shared by instances, each of whose calls fails while `down`. */
  function flaky() {
    const state = { down: false };
    const fail = <T>(work: () => Promise<T>): Promise<T> =>
      state.down ? Promise.reject(new Error("connection refused")) : work();
    const store = createMemorySessionStore();
    const events = createMemoryEventStore();
    const bus = createMemoryMessageBus();
    const sessionStore: SessionStore = {
      get: (id) => fail(() => store.get(id)),
      set: (id, record, ttl) => fail(() => store.set(id, record, ttl)),
      touch: (id, ttl) => fail(() => store.touch(id, ttl)),
      delete: (id) => fail(() => store.delete(id)),
    };
    const eventStore: EventStore = {
      append: (stream, seq, frame) => fail(() => events.append(stream, seq, frame)),
      replay: (stream, after) => fail(() => events.replay(stream, after)),
      drop: (stream) => fail(() => events.drop(stream)),
    };
    const messageBus: MessageBus = {
      publish: (topic, message) => fail(() => bus.publish(topic, message)),
      subscribe: (topic, deliver) => bus.subscribe(topic, deliver),
    };
    return { state, shared: { sessionStore, eventStore, messageBus } };
  }

  it("a request that needs them gets 503 with Retry-After, never a 500; a refused initialize names no session; all is served again once they are back", async () => {
    const { state, shared } = flaky();
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    const a = serve(probe(), { ...shared, onError });
    const b = serve(probe(), { ...shared, onError });
    const session = await openSession(a);
    state.down = true;
    const refused = await post(a, initializeBody);
    expect([refused.status, refused.headers.get("mcp-session-id"), refused.headers.get("retry-after")]).toEqual([
      503,
      null,
      "1",
    ]);
    expect(await refused.json()).toMatchObject({
      error: { code: -32603, message: expect.stringContaining("try again") },
    });
    // b never saw the session: finding it needs the store. a holds it, and serves it without.
    expect((await post(b, legacyCall(1, "on-b"), inSession(session))).status).toBe(503);
    expect((await send(b, "GET", { ...inSession(session), "last-event-id": "s_1" })).status).toBe(503);
    expect((await post(a, legacyCall(2, "on-a"), inSession(session))).status).toBe(200);
    // A DELETE is not acknowledged before the record is gone from the store.
    expect((await send(a, "DELETE", inSession(session))).status).toBe(503);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((error) => (error as Error).name === "StoreUnavailableError")).toBe(true);
    state.down = false;
    expect(await (await post(b, legacyCall(3, "on-b"), inSession(session))).json()).toMatchObject({
      result: { content: [{ text: "on-b" }] },
    });
    expect((await send(b, "DELETE", inSession(session))).status).toBe(204);
    expect((await post(a, legacyCall(4, "on-a"), inSession(session))).status).toBe(404);
    expect(await openSession(a)).toBeTruthy();
  });

  it("a client's answer that must cross to another instance gets 503 when the bus fails, and reaches the handler when re-sent", async () => {
    const { state, shared } = flaky();
    const a = serve(probe(), shared);
    const b = serve(probe(), shared);
    const session = await openSession(a);
    expect((await post(b, legacyCall(1, "warm"), inSession(session))).status).toBe(200);
    const reply = await post(a, legacyCall(2, "elicit"), inSession(session));
    const reader = reply.body!.getReader();
    const asked = events(new TextDecoder().decode((await reader.read()).value))[0]!.data as { id: number };
    const answer = { jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: {} } };
    state.down = true;
    expect((await post(b, answer, inSession(session))).status).toBe(503);
    state.down = false;
    expect((await post(b, answer, inSession(session))).status).toBe(202);
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(events(rest).at(-1)?.data).toMatchObject({ id: 2, result: { content: [{ text: "accept" }] } });
  });
});
