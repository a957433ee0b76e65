// runtime/server-eras.ts from outside, through the eras a release's `server.ts` builds (`statelessEra`,
// `sessionEra`) and driven as a transport drives them: what handlers get as `ctx.context`, requestState
// verified and signed through the era, the session era's requests to the client (answers, errors, timeout,
// cancel, close, the fallback stream), batches and `batchOf`. The transports' own tests sit on top.
import { describe, expect, it } from "vitest";
import * as batching from "../../../generated/2025-03-26/index.js";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";
import { checkEnvelope, type WireMessage } from "../../../generated/runtime/core/jsonrpc.js";
import type { StateBinding, StateCodec } from "../../../generated/runtime/server/request-state.js";
import {
  batchOf,
  isInitialize,
  isInitialized,
  MAX_BATCH_MESSAGES,
  type TransportContext,
} from "../../../generated/runtime/server/server-eras.js";
import type { SessionRecord } from "../../../generated/runtime/server/session-store.js";

const META = { [modern.MetaKey.protocolVersion]: "2026-07-28", [modern.MetaKey.clientCapabilities]: {} };

/** `value` as the transports hand it to an era: checked as a JSON-RPC envelope. */
function wire(value: object): WireMessage {
  const checked = checkEnvelope(value);
  if (!checked.ok) throw new Error("not a JSON-RPC message");
  return checked.message;
}

/** A transport's base context that records what is sent on the request's stream. */
function base(extra: Partial<TransportContext> = {}): TransportContext & { readonly sent: object[] } {
  const sent: object[] = [];
  return { headers: { "x-test": "1" }, send: (message) => sent.push(message), sent, ...extra };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("the stateless era (2026-07-28)", () => {
  const call = (id: number, name: string, params: object = {}) =>
    wire({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: META, ...params } });

  it("hands handlers the request's headers, send, identity and peer, with no state on a first call", async () => {
    let seen: modern.StatelessServerContext | undefined;
    const era = modern.statelessEra({
      "tools/call": (_params, ctx) => {
        seen = ctx.context;
        ctx.context.send({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: 1 } });
        return { content: [] };
      },
    });
    const peer = {};
    const given = base({ identity: { subject: "alice" }, peer });
    const answer = await era.handle(call(1, "x"), given, undefined);
    expect(answer).toMatchObject({ id: 1, result: { content: [] } });
    expect(seen?.headers).toEqual({ "x-test": "1" });
    expect(seen?.identity).toEqual({ subject: "alice" });
    expect(seen?.peer).toBe(peer);
    expect(seen?.state).toBeUndefined();
    expect(typeof seen?.inputRequired).toBe("function");
    expect(given.sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: 1 } },
    ]);

    // Without a peer of its own, the request is its own peer.
    const alone = base();
    await era.handle(call(2, "x"), alone, undefined);
    expect(seen?.peer).toBe(alone);
  });

  it("a cancel reaches the request of that id from its own peer only; without a peer, no other request", async () => {
    const signals = new Map<string, AbortSignal>();
    const era = modern.statelessEra({
      "tools/call": async (params, ctx) => {
        signals.set(params.name, ctx.signal);
        await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
        return { content: [] };
      },
    });
    const cancel = wire({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, _meta: META },
    });
    const alice = {};
    const bob = {};
    void era.handle(call(1, "alice"), base({ peer: alice }), undefined);
    void era.handle(call(1, "bob"), base({ peer: bob }), undefined);
    void era.handle(call(1, "nobody"), base(), undefined);
    await settle();
    expect(await era.handle(cancel, base(), undefined)).toBeUndefined();
    await settle();
    expect([...signals].map(([name, signal]) => [name, signal.aborted])).toEqual([
      ["alice", false],
      ["bob", false],
      ["nobody", false],
    ]);
    await era.handle(cancel, base({ peer: bob }), undefined);
    await settle();
    expect([...signals].map(([name, signal]) => [name, signal.aborted])).toEqual([
      ["alice", false],
      ["bob", true],
      ["nobody", false],
    ]);
    await era.handle(cancel, base({ peer: alice }), undefined);
    await era.handle(cancel, base({ peer: {} }), undefined);
    await settle();
    expect(signals.get("alice")?.aborted).toBe(true);
    expect(signals.get("nobody")?.aborted).toBe(false);
  });

  /** An era whose tool asks for input once, keeping `{ step: 1 }`, and echoes the state it is given back. */
  function asking(options: modern.StatelessEraOptions = {}) {
    const states: unknown[] = [];
    const era = modern.statelessEra(
      {
        "tools/call": (_params, ctx) => {
          states.push(ctx.context.state);
          if (ctx.context.state === undefined)
            return ctx.context.inputRequired({ ask: { method: "roots/list", params: {} } }, { step: 1 });
          return { content: [{ type: "text", text: JSON.stringify(ctx.context.state) }] };
        },
        "prompts/get": (_params, ctx) => {
          states.push(ctx.context.state);
          return { messages: [] };
        },
      },
      options,
    );
    return { era, states };
  }

  /** The requestState of the first call's `input_required` answer. */
  async function firstState(era: modern.StatelessEra) {
    const answer = (await era.handle(call(1, "t", { arguments: { amount: 1 } }), base(), undefined)) as unknown as {
      result: { resultType: string; inputRequests: unknown; requestState: string };
    };
    expect(answer.result.resultType).toBe("input_required");
    expect(answer.result.inputRequests).toEqual({ ask: { method: "roots/list", params: {} } });
    expect(typeof answer.result.requestState).toBe("string");
    return answer.result.requestState;
  }
  const answers = { ask: { roots: [] } };
  const invalid = { error: { code: -32602, message: expect.stringContaining("requestState") } };

  it("a retry with the signed state gets it back in ctx.context.state, once, with a new _meta allowed", async () => {
    const { era, states } = asking();
    const requestState = await firstState(era);
    const retry = call(2, "t", {
      arguments: { amount: 1 },
      inputResponses: answers,
      requestState,
      _meta: { ...META, progressToken: "new" },
    });
    expect(await era.handle(retry, base(), undefined)).toMatchObject({
      id: 2,
      result: { content: [{ text: '{"step":1}' }] },
    });
    expect(states).toEqual([undefined, { step: 1 }]);
    // Used once: the same retry again is refused before the handler runs.
    expect(await era.handle(retry, base(), undefined)).toMatchObject({ id: 2, ...invalid });
    expect(states).toHaveLength(2);
  });

  it.each([
    { name: "changed params", method: "tools/call", params: { name: "t", arguments: { amount: 1_000_000 } } },
    { name: "another tool", method: "tools/call", params: { name: "other", arguments: { amount: 1 } } },
    { name: "another method", method: "prompts/get", params: { name: "t", arguments: { amount: 1 } } },
  ])("a state retried with $name is refused with -32602 before any handler runs", async ({ method, params }) => {
    const { era, states } = asking();
    const requestState = await firstState(era);
    const retry = wire({
      jsonrpc: "2.0",
      id: 3,
      method,
      params: { ...params, inputResponses: answers, requestState, _meta: META },
    });
    expect(await era.handle(retry, base(), undefined)).toMatchObject({ id: 3, ...invalid });
    expect(states).toEqual([undefined]);
  });

  it.each([
    { name: "altered", alter: (token: string) => token.slice(0, -2) + (token.endsWith("A") ? "BB" : "AA") },
    { name: "not a token", alter: () => "hello" },
    { name: "not a string", alter: () => 5 },
  ])("a state $name is refused with -32602", async ({ alter }) => {
    const { era, states } = asking();
    const requestState = alter(await firstState(era));
    const retry = call(4, "t", { arguments: { amount: 1 }, inputResponses: answers, requestState });
    expect(await era.handle(retry, base(), undefined)).toMatchObject({ id: 4, ...invalid });
    expect(states).toEqual([undefined]);
  });

  it("inputRequired without a state to keep carries no requestState", async () => {
    const era = modern.statelessEra({
      "tools/call": (_params, ctx) => ctx.context.inputRequired({ ask: { method: "roots/list", params: {} } }),
    });
    const answer = (await era.handle(call(1, "t"), base(), undefined)) as { result: object };
    expect(answer.result).toEqual({
      resultType: "input_required",
      inputRequests: { ask: { method: "roots/list", params: {} } },
    });
  });

  it("signs and verifies through a given codec, bound to the method and the params a retry repeats", async () => {
    const bindings: [string, StateBinding][] = [];
    const codec: StateCodec = {
      sign: (state, request) => {
        bindings.push(["sign", request]);
        return Promise.resolve(JSON.stringify(state));
      },
      verify: (token, request) => {
        bindings.push(["verify", request]);
        return Promise.resolve(typeof token === "string" ? (JSON.parse(token) as { step: number }) : undefined);
      },
    };
    const { era, states } = asking({ requestState: codec });
    const requestState = await firstState(era);
    expect(requestState).toBe('{"step":1}');
    await era.handle(
      call(2, "t", { arguments: { amount: 1 }, inputResponses: answers, requestState }),
      base(),
      undefined,
    );
    const bound = { method: "tools/call", params: { name: "t", arguments: { amount: 1 } } };
    expect(bindings).toEqual([
      ["sign", bound],
      ["verify", bound],
    ]);
    expect(states).toEqual([undefined, { step: 1 }]);
  });

  it("codec options reach the default codec: eras sharing a secret accept each other's states", async () => {
    const secret = "s".repeat(32);
    const issuing = asking({ requestState: { secret } });
    const requestState = await firstState(issuing.era);
    const retry = call(2, "t", { arguments: { amount: 1 }, inputResponses: answers, requestState });
    const stranger = asking();
    expect(await stranger.era.handle(retry, base(), undefined)).toMatchObject(invalid);
    const sibling = asking({ requestState: { secret } });
    expect(await sibling.era.handle(retry, base(), undefined)).toMatchObject({ id: 2, result: { content: [{}] } });
  });
});

/** A 2025-11-25 session era whose `tools/call` asks the client what the tool's name says. */
function sessions(options: legacy.SessionEraOptions<{ calls: number }> = {}) {
  const contexts: legacy.SessionServerContext<{ calls: number }>[] = [];
  const later: Promise<unknown>[] = [];
  const era = legacy.sessionEra<{ calls: number }>(
    {
      "tools/call": async (params, ctx) => {
        contexts.push(ctx.context);
        ctx.context.session.state.calls++;
        if (params.name === "roots") {
          // What the request failed with, as the handler sees it (the dispatcher would mask it as "Internal error").
          const text = await ctx.context.request("roots/list", {}).then(
            ({ roots }) => `${roots.length} roots`,
            (error: Error & { code?: number }) => `${error.code ?? error.name}: ${error.message}`,
          );
          return { content: [{ type: "text", text }] };
        }
        // Asks once the handler has answered, as a handler's background work would.
        if (params.name === "later") setTimeout(() => later.push(ctx.context.request("roots/list", {})), 0);
        return { content: [{ type: "text", text: params.name }] };
      },
    },
    { sessionState: () => ({ calls: 0 }), ...options },
  );
  return { era, contexts, later };
}
const toolCall = (id: number, name: string) =>
  wire({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
const none = () => undefined;
const RECORD: SessionRecord = {
  version: "2025-11-25",
  clientCapabilities: undefined,
  clientInfo: undefined,
  logLevel: undefined,
  subscriptions: [],
  subject: undefined,
  initialized: true,
  ready: true,
};

describe("the session era (2025-11-25)", () => {
  it("hands handlers the headers, send, identity, the session with its own state, and request", async () => {
    const { era, contexts } = sessions();
    const one = era.open("one");
    const two = era.open(undefined);
    const given = base({ identity: { subject: "bob" } });
    await era.handle(one, toolCall(1, "a"), given, undefined, none);
    await era.handle(one, toolCall(2, "b"), base(), undefined, none);
    await era.handle(two, toolCall(1, "c"), base(), undefined, none);
    const [first, , third] = contexts;
    expect(first?.headers).toEqual({ "x-test": "1" });
    expect(first?.send).toBe(given.send);
    expect(first?.identity).toEqual({ subject: "bob" });
    expect(typeof first?.request).toBe("function");
    expect([first?.session.id, first?.session.state]).toEqual(["one", { calls: 2 }]);
    expect([third?.session.id, third?.session.state]).toEqual([undefined, { calls: 1 }]);
    expect(one.info).toBe(first?.session);
  });

  it("hands handlers the transport's current record of the session, none when the transport keeps none", async () => {
    const { era, contexts } = sessions();
    const transport: { record?: SessionRecord } = {};
    const kept = era.open("kept", false, () => transport.record);
    await era.handle(kept, toolCall(1, "a"), base(), undefined, none);
    expect(contexts[0]?.session.record).toBeUndefined();
    transport.record = { ...RECORD, logLevel: "error" };
    await era.handle(kept, toolCall(2, "b"), base(), undefined, none);
    expect(contexts[1]?.session.record?.logLevel).toBe("error");
    await era.handle(era.open(undefined), toolCall(1, "c"), base(), undefined, none);
    expect(contexts[2]?.session.record).toBeUndefined();
  });

  it("a request to the client goes out on the request's stream and the client's answer fed to receive settles it", async () => {
    const { era } = sessions();
    const session = era.open("s");
    const given = base();
    const answered = era.handle(session, toolCall(7, "roots"), given, undefined, none);
    await settle();
    expect(given.sent).toEqual([{ jsonrpc: "2.0", id: 1, method: "roots/list", params: {} }]);
    expect(session.pending).toBe(1);
    expect(session.receive(wire({ jsonrpc: "2.0", id: 99, result: {} }))).toBe(false);
    expect(session.receive(wire({ jsonrpc: "2.0", id: 1, result: { roots: [{ uri: "file:///a" }] } }))).toBe(true);
    expect(await answered).toMatchObject({ id: 7, result: { content: [{ text: "1 roots" }] } });
    expect(session.pending).toBe(0);
    // Ids go on counting per session; another session starts its own.
    const again = era.handle(session, toolCall(8, "roots"), given, undefined, none);
    const other = base();
    const t = era.open("t");
    const elsewhere = era.handle(t, toolCall(8, "roots"), other, undefined, none);
    await settle();
    expect([(given.sent[1] as { id: number }).id, (other.sent[0] as { id: number }).id]).toEqual([2, 1]);
    session.receive(wire({ jsonrpc: "2.0", id: 2, result: { roots: [] } }));
    expect(await again).toMatchObject({ result: { content: [{ text: "0 roots" }] } });
    t.close();
    expect(await elsewhere).toMatchObject({ result: { content: [{ text: "Error: Session ended" }] } });
  });

  it("an error answer rejects the handler's request with the client's error", async () => {
    const { era } = sessions();
    const session = era.open("s");
    const answered = era.handle(session, toolCall(1, "roots"), base(), undefined, none);
    await settle();
    session.receive(wire({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "no roots here" } }));
    expect(await answered).toMatchObject({ id: 1, result: { content: [{ text: "-32601: no roots here" }] } });
  });

  it("a request the client never answers fails after requestTimeoutMs, and the client is told", async () => {
    const { era } = sessions({ requestTimeoutMs: 10 });
    const session = era.open("s");
    const given = base();
    const answer = await era.handle(session, toolCall(1, "roots"), given, undefined, none);
    expect(answer).toMatchObject({ id: 1, result: { content: [{ text: "TimeoutError: No response within 10 ms" }] } });
    await settle();
    expect(given.sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: 1 } });
    expect(session.pending).toBe(0);
  });

  it("aborting the request being handled cancels its request to the client, though the handler passed no signal", async () => {
    const { era } = sessions();
    const session = era.open("s");
    const given = base();
    const controller = new AbortController();
    const answered = era.handle(session, toolCall(1, "roots"), given, controller.signal, none);
    await settle();
    controller.abort(new Error("client went away"));
    await answered;
    await settle();
    expect(given.sent[1]).toMatchObject({ method: "notifications/cancelled", params: { requestId: 1 } });
    expect(session.pending).toBe(0);
  });

  it("close fails every request to the client still waiting", async () => {
    const { era } = sessions();
    const session = era.open("s");
    const answered = [1, 2].map((id) => era.handle(session, toolCall(id, "roots"), base(), undefined, none));
    await settle();
    expect(session.pending).toBe(2);
    session.close();
    expect(session.pending).toBe(0);
    for (const answer of await Promise.all(answered))
      expect(answer).toMatchObject({ result: { content: [{ text: "Error: Session ended" }] } });
    expect(session.receive(wire({ jsonrpc: "2.0", id: 1, result: { roots: [] } }))).toBe(false);
  });

  it("a client that takes JSON alone is asked on the fallback stream; with none, the request fails", async () => {
    const { era } = sessions();
    const session = era.open("s");
    const own = base({ streaming: false });
    const standalone: object[] = [];
    const answered = era.handle(session, toolCall(1, "roots"), own, undefined, () => (m) => standalone.push(m));
    await settle();
    expect([own.sent, standalone]).toEqual([[], [{ jsonrpc: "2.0", id: 1, method: "roots/list", params: {} }]]);
    session.receive(wire({ jsonrpc: "2.0", id: 1, result: { roots: [] } }));
    expect(await answered).toMatchObject({ result: { content: [{ text: "0 roots" }] } });

    const nowhere = await era.handle(session, toolCall(2, "roots"), base({ streaming: false }), undefined, none);
    expect(nowhere).toMatchObject({
      id: 2,
      result: { content: [{ text: "-32603: No stream left to reach the client on" }] },
    });
  });

  it("a request made after its handler answered goes to the fallback stream, not the ended one", async () => {
    const { era, later } = sessions();
    const session = era.open("s");
    const own = base();
    const standalone: object[] = [];
    const toStandalone = (message: object) => void standalone.push(message);
    await era.handle(session, toolCall(1, "later"), own, undefined, () => toStandalone);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(own.sent).toEqual([]);
    expect(standalone).toEqual([{ jsonrpc: "2.0", id: 1, method: "roots/list", params: {} }]);
    session.receive(wire({ jsonrpc: "2.0", id: 1, result: { roots: [] } }));
    expect(await later[0]).toEqual({ roots: [] });
  });

  it("isInitialize is true for the era's initialize request only", () => {
    const { era } = sessions();
    expect(isInitialize(era.spec, { jsonrpc: "2.0", id: 1, method: "initialize" })).toBe(true);
    expect(isInitialize(era.spec, { jsonrpc: "2.0", method: "initialize" })).toBe(false);
    expect(isInitialize(era.spec, { jsonrpc: "2.0", id: 1, method: "ping" })).toBe(false);
    expect(isInitialize(era.spec, [{ jsonrpc: "2.0", id: 1, method: "initialize" }])).toBe(false);
    expect(isInitialized(era.spec, { jsonrpc: "2.0", method: "notifications/initialized" })).toBe(true);
    expect(isInitialized(era.spec, { jsonrpc: "2.0", id: 1, method: "notifications/initialized" })).toBe(false);
    expect(isInitialized(era.spec, { jsonrpc: "2.0", method: "initialize" })).toBe(false);
  });

  it("broadcasts to each transport's outlet, picking sessions initialized (and chosen by `to`), until removed", async () => {
    const era = legacy.sessionEra({ "notifications/initialized": () => undefined }, { sessionState: () => ({ n: 0 }) });
    const fresh = era.open("fresh");
    const done = era.open("done");
    const adopted = era.open("adopted", true);
    await era.handle(
      done,
      wire({ jsonrpc: "2.0", method: "notifications/initialized" }),
      base(),
      undefined,
      () => undefined,
    );
    expect([fresh.initialized, done.initialized, adopted.initialized]).toEqual([false, true, true]);
    const reached: [string | undefined, unknown][] = [];
    const stop = era.onBroadcast((message, wants) => {
      for (const session of [fresh, done, adopted]) if (wants(session)) reached.push([session.info.id, message]);
    });
    era.broadcast({ n: 1 });
    era.broadcast({ n: 2 }, (info) => info.id === "adopted");
    stop();
    era.broadcast({ n: 3 });
    expect(reached).toEqual([
      ["done", { n: 1 }],
      ["adopted", { n: 1 }],
      ["adopted", { n: 2 }],
    ]);
  });

  it("counts a session initialized when the record its transport gives says so, and hands `to` that record", () => {
    const era = legacy.sessionEra({});
    const session = era.open("elsewhere");
    const record = (ready: boolean) => ({
      version: "2025-11-25",
      clientCapabilities: undefined,
      clientInfo: undefined,
      logLevel: undefined,
      subscriptions: ["test://x"],
      subject: undefined,
      initialized: true,
      ready,
    });
    const reached: unknown[] = [];
    era.onBroadcast((message, wants) => {
      for (const ready of [false, true]) if (wants(session, record(ready))) reached.push(message);
    });
    era.broadcast({ n: 1 }, (_info, stored) => stored?.subscriptions.includes("test://x") === true);
    era.broadcast({ n: 2 }, (_info, stored) => stored?.subscriptions.includes("test://y") === true);
    expect(reached).toEqual([{ n: 1 }]);
  });
});

describe("batches (2025-03-26)", () => {
  function batchEra() {
    const ran: string[] = [];
    const era = batching.sessionEra({
      "tools/call": async (params, ctx) => {
        ran.push(params.name);
        if (params.name === "roots") {
          const { roots } = await ctx.context.request("roots/list", {});
          return { content: [{ type: "text", text: `${roots.length} roots` }] };
        }
        return { content: [{ type: "text", text: params.name }] };
      },
    });
    return { era, ran };
  }
  const member = (id: number, name: string) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: {} },
  });

  it("answers every request of a batch in an array, each invalid member with its own error", async () => {
    const { era } = batchEra();
    const answer = await era.handleBatch(
      era.open("s"),
      [member(1, "a"), { jsonrpc: "2.0" }, member(2, "b")],
      base(),
      undefined,
      none,
    );
    expect(answer).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "a" }] } },
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "b" }] } },
    ]);
  });

  it(`refuses a batch of more than ${MAX_BATCH_MESSAGES} messages whole, before any member runs`, async () => {
    const { era, ran } = batchEra();
    const session = era.open("s");
    const over = Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, i) => member(i + 1, `m${i}`));
    expect(await era.handleBatch(session, over, base(), undefined, none)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: expect.stringContaining(String(MAX_BATCH_MESSAGES)) },
    });
    expect(ran).toEqual([]);
    const full = await era.handleBatch(session, over.slice(1), base(), undefined, none);
    expect(full).toHaveLength(MAX_BATCH_MESSAGES);
  });

  it("the client's answers in a batch settle the requests waiting for them; a batch of answers alone gets none", async () => {
    const { era } = batchEra();
    const session = era.open("s");
    const given = base();
    const asked = era.handle(session, wire(member(1, "roots")), given, undefined, none);
    await settle();
    expect(given.sent).toEqual([{ jsonrpc: "2.0", id: 1, method: "roots/list", params: {} }]);
    const answer = await era.handleBatch(
      session,
      [{ jsonrpc: "2.0", id: 1, result: { roots: [{ uri: "file:///a" }] } }],
      base(),
      undefined,
      none,
    );
    expect(answer).toBeUndefined();
    expect(await asked).toMatchObject({ id: 1, result: { content: [{ text: "1 roots" }] } });

    const second = era.handle(session, wire(member(2, "roots")), given, undefined, none);
    await settle();
    const mixed = await era.handleBatch(
      session,
      [member(3, "x"), { jsonrpc: "2.0", id: 2, result: { roots: [] } }],
      base(),
      undefined,
      none,
    );
    expect(mixed).toEqual([{ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "x" }] } }]);
    expect(await second).toMatchObject({ id: 2, result: { content: [{ text: "0 roots" }] } });
  });

  it("a batch holding the client's notifications/initialized initializes the session", async () => {
    const { era } = batchEra();
    const session = era.open("s");
    await era.handleBatch(
      session,
      [{ jsonrpc: "2.0", method: "notifications/initialized" }, member(1, "x")],
      base(),
      undefined,
      () => undefined,
    );
    expect(session.initialized).toBe(true);
  });

  it("an empty batch is one -32600 error", async () => {
    const { era } = batchEra();
    expect(await era.handleBatch(era.open("s"), [], base(), undefined, none)).toMatchObject({
      id: null,
      error: { code: -32600 },
    });
  });
});

describe("batchOf", () => {
  it.each([
    { given: "[1,2]", want: [1, 2] },
    { given: ' \n\t\r[{"a":1}]', want: [{ a: 1 }] },
    { given: "[]", want: [] },
    { given: '{"a":1}', want: undefined },
    { given: '"[1]"', want: undefined },
    { given: "[1,", want: undefined },
    { given: "x[1]", want: undefined },
    { given: "", want: undefined },
  ])("$given", ({ given, want }) => {
    expect(batchOf(given)).toEqual(want);
  });
});
