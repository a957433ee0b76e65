import { describe, expect, it, vi } from "vitest";
import {
  createRequesterCore,
  inputHandlerFor,
  receiveBatch,
  type BuildRequest,
  type InputHandler,
  type RequesterOptions,
  type RequesterSpec,
  type Delivery,
  type Untimed,
} from "../../../generator/runtime/core/requester.ts";
import { RpcError } from "../../../generator/runtime/core/rpc-error.ts";
import * as batching from "../../../generated/2025-03-26/index.js";
import * as later from "../../../generated/2025-06-18/index.js";

type Sent = { jsonrpc: "2.0"; id?: string | number; method: string; params?: Record<string, unknown> };

/** A builder like the per-release ones: writes a modern `_meta` into every request. */
const build: BuildRequest = (method, params, id) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
});

/** The facts a modern release passes (dispatch.cancel and inputRequired from the model). */
const SPEC: RequesterSpec = {
  cancel: { method: "notifications/cancelled", requestIdParam: "requestId", notCancellable: ["initialize"] },
  internalErrorCode: -32603,
  batches: null,
  inputRequired: {
    resultType: { key: "resultType", complete: "complete", inputRequired: "input_required" },
    requests: "inputRequests",
    responses: "inputResponses",
    state: "requestState",
  },
};

function harness(options: RequesterOptions = {}, spec: RequesterSpec = SPEC) {
  const sent: Sent[] = [];
  const requester = createRequesterCore(spec, build, (message) => void sent.push(message), options);
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { sent, requester, flush };
}

describe("createRequesterCore", () => {
  it("allocates distinct ids and pairs each response with its own request, in any order", async () => {
    const { sent, requester, flush } = harness();
    const first = requester.request("tools/list", {});
    const second = requester.request("prompts/list", {});
    await flush();
    expect(sent.map((message) => message.id)).toEqual([1, 2]);
    expect(sent[0]?.params?.["_meta"]).toEqual({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" });
    expect(requester.receive({ jsonrpc: "2.0", id: 2, result: { prompts: [] } })).toBe(true);
    expect(requester.receive({ jsonrpc: "2.0", id: 1, result: { tools: [] } })).toBe(true);
    await expect(first).resolves.toEqual({ tools: [] });
    await expect(second).resolves.toEqual({ prompts: [] });
    expect(requester.pending).toBe(0);
  });

  it("hands a call's headers to send in its second argument, on a retry too; a call without any passes none", async () => {
    const seen: unknown[][] = [];
    const requester = createRequesterCore(SPEC, build, (...args: unknown[]) => void seen.push(args), {
      inputHandler: inputHandlerFor({ answerInputRequests: async () => ({ inputResponses: { a: {} }, errors: {} }) }),
    });
    const flush = () => new Promise((resolve) => setImmediate(resolve));
    const headers = { "Mcp-Param-Region": "eu" };
    const call = requester.request("tools/call", { name: "t" }, { headers });
    await flush();
    requester.receive({ jsonrpc: "2.0", id: 1, result: { resultType: "input_required", inputRequests: { a: {} } } });
    await flush();
    requester.receive({ jsonrpc: "2.0", id: 2, result: { content: [] } });
    await call;
    void requester.request("tools/list", {});
    await flush();
    expect(seen.map((args) => (args[1] as { headers?: unknown }).headers)).toEqual([headers, headers, undefined]);
  });

  it("hands send a signal per call, aborted once the call fails (timeout, abort, close) and never when it is answered", async () => {
    const signals: AbortSignal[] = [];
    const requester = createRequesterCore(
      SPEC,
      build,
      (...args: unknown[]) => void signals.push((args[1] as { signal: AbortSignal }).signal),
      { timeoutMs: 5 },
    );
    const flush = () => new Promise((resolve) => setImmediate(resolve));
    const timedOut = requester.request("ping", undefined).catch(() => undefined);
    const abort = new AbortController();
    const aborted = requester
      .request("ping", undefined, { signal: abort.signal, timeoutMs: 60_000 })
      .catch(() => undefined);
    const closed = requester.request("ping", undefined, { timeoutMs: 60_000 }).catch(() => undefined);
    const answered = requester.request("ping", undefined, { timeoutMs: 60_000 });
    await flush();
    requester.receive({ jsonrpc: "2.0", id: 4, result: {} });
    await answered;
    abort.abort();
    await Promise.all([timedOut, aborted]);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true, false, false]);
    requester.close();
    await closed;
    expect(signals[2]?.aborted).toBe(true);
    expect(signals[3]?.aborted).toBe(false);
  });

  it("a call without timeoutMs fails after the default 60 s (a peer that never answers holds it no longer)", async () => {
    vi.useFakeTimers();
    try {
      const { sent, requester } = harness();
      const call = requester.request("ping", undefined).catch((reason: unknown) => reason);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(requester.pending).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(requester.pending).toBe(0);
      expect(await call).toMatchObject({ name: "TimeoutError", message: "No response within 60000 ms" });
      expect(sent.map((message) => message.method)).toEqual(["ping", "notifications/cancelled"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("untimed stops a call's clock while what it waits on is pending: the time before and after still counts", async () => {
    vi.useFakeTimers();
    try {
      const untimed: Untimed[] = [];
      const requester = createRequesterCore(
        SPEC,
        build,
        (...args: unknown[]) => void untimed.push((args[1] as Delivery).untimed),
        { timeoutMs: 1000 },
      );
      const call = requester.request("ping", undefined).catch((reason: unknown) => reason);
      await vi.advanceTimersByTimeAsync(400);
      let loggedIn: () => void = () => undefined;
      const login = untimed[0]!(new Promise<void>((resolve) => (loggedIn = resolve)));
      // Nested waits hold the clock until the last one settles.
      let other: () => void = () => undefined;
      void untimed[0]!(new Promise<void>((resolve) => (other = resolve)));
      await vi.advanceTimersByTimeAsync(10_000);
      loggedIn();
      await login;
      await vi.advanceTimersByTimeAsync(10_000);
      expect(requester.pending).toBe(1);
      other();
      await vi.advanceTimersByTimeAsync(599);
      expect(requester.pending).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await call).toMatchObject({ name: "TimeoutError", message: "No response within 1000 ms" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("a call that settles while untimed starts no clock again (nothing fires after it)", async () => {
    vi.useFakeTimers();
    try {
      const untimed: Untimed[] = [];
      const requester = createRequesterCore(
        SPEC,
        build,
        (...args: unknown[]) => void untimed.push((args[1] as Delivery).untimed),
        { timeoutMs: 1000 },
      );
      const call = requester.request("ping", undefined);
      await vi.advanceTimersByTimeAsync(0);
      let loggedIn: () => void = () => undefined;
      const login = untimed[0]!(new Promise<void>((resolve) => (loggedIn = resolve)));
      requester.receive({ jsonrpc: "2.0", id: 1, result: {} });
      await expect(call).resolves.toEqual({});
      loggedIn();
      await login;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes ids from a shared allocator, so requesters on one peer never reuse each other's ids", async () => {
    let next = 0;
    const nextId = () => `s-${++next}`;
    const sent: Sent[] = [];
    const first = createRequesterCore(SPEC, build, (message) => void sent.push(message), { nextId });
    const second = createRequesterCore(SPEC, build, (message) => void sent.push(message), { nextId });
    void first.request("ping", undefined);
    void second.request("ping", undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((message) => message.id)).toEqual(["s-1", "s-2"]);
    expect(first.receive({ jsonrpc: "2.0", id: "s-2", result: {} })).toBe(false);
    expect(second.receive({ jsonrpc: "2.0", id: "s-2", result: {} })).toBe(true);
  });

  it.each([
    ["a notification", { jsonrpc: "2.0", method: "notifications/message", params: {} }],
    ["a request from the peer", { jsonrpc: "2.0", id: 1, method: "ping" }],
    ["a response to an unknown id", { jsonrpc: "2.0", id: 99, result: {} }],
    ["an error with id null", { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }],
    ["not an object", "text"],
  ])("leaves %s to the caller", async (_, message) => {
    const { requester } = harness();
    void requester.request("ping", undefined).catch(() => undefined);
    expect(requester.receive(message)).toBe(false);
    expect(requester.pending).toBe(1);
  });

  it("rejects with an RpcError carrying the error response's code, message and data", async () => {
    const { requester, flush } = harness();
    const call = requester.request("tools/call", { name: "x" });
    await flush();
    requester.receive({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Unknown tool", data: { name: "x" } } });
    const error = await call.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32602, message: "Unknown tool", data: { name: "x" } });
  });

  it("sends notifications/cancelled with the request's id when the caller aborts, and rejects with the abort reason", async () => {
    const { sent, requester, flush } = harness();
    const controller = new AbortController();
    const call = requester.request("tools/call", { name: "slow" }, { signal: controller.signal });
    await flush();
    controller.abort(new Error("user gave up"));
    await expect(call).rejects.toThrow("user gave up");
    await flush();
    expect(sent[1]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, reason: "user gave up" },
    });
    expect(requester.receive({ jsonrpc: "2.0", id: 1, result: {} })).toBe(false);
  });

  it("times out like an abort: rejected with a TimeoutError and cancelled on the wire", async () => {
    const { sent, requester, flush } = harness({ timeoutMs: 5 });
    const error = await requester.request("ping", undefined).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ name: "TimeoutError" });
    await flush();
    expect(sent.map((message) => message.method)).toEqual(["ping", "notifications/cancelled"]);
  });

  it("never cancels a request the spec says must not be cancelled (initialize), and still fails the call", async () => {
    const { sent, requester, flush } = harness({ timeoutMs: 5 });
    const error = await requester.request("initialize", {}).catch((reason: unknown) => reason);
    expect(error).toMatchObject({ name: "TimeoutError" });
    await flush();
    expect(sent.map((message) => message.method)).toEqual(["initialize"]);
  });

  it("sends no cancel notification in a release without one, and still fails the call", async () => {
    const sent: Sent[] = [];
    const requester = createRequesterCore({ ...SPEC, cancel: null }, build, (message) => void sent.push(message), {
      timeoutMs: 5,
    });
    await expect(requester.request("ping", undefined)).rejects.toMatchObject({ name: "TimeoutError" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((message) => message.method)).toEqual(["ping"]);
  });

  it("does not send a request whose signal is already aborted", async () => {
    const { sent, requester } = harness();
    await expect(requester.request("ping", undefined, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(sent).toEqual([]);
  });

  it("fails the call when send rejects, and close() fails every pending call", async () => {
    const failing = createRequesterCore(SPEC, build, () => Promise.reject(new Error("socket closed")));
    await expect(failing.request("ping", undefined)).rejects.toThrow("socket closed");
    expect(failing.pending).toBe(0);
    const { requester } = harness();
    const call = requester.request("ping", undefined);
    requester.close(new Error("transport closed"));
    await expect(call).rejects.toThrow("transport closed");
  });

  it("answers input_required through the input handler and retries with inputResponses and requestState", async () => {
    const asked: unknown[] = [];
    const inputHandler: InputHandler = inputHandlerFor({
      answerInputRequests: async (inputRequests) => {
        asked.push(inputRequests);
        return { inputResponses: { who: { action: "accept", content: { name: "Ada" } } }, errors: {} };
      },
    });
    const { sent, requester, flush } = harness({ inputHandler });
    const call = requester.request("tools/call", { name: "greet", arguments: {} });
    await flush();
    requester.receive({
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "input_required",
        requestState: "opaque",
        inputRequests: { who: { method: "elicitation/create", params: { message: "Name?" } } },
      },
    });
    await flush();
    expect(asked).toEqual([{ who: { method: "elicitation/create", params: { message: "Name?" } } }]);
    expect(sent[1]).toMatchObject({
      id: 2,
      method: "tools/call",
      params: {
        name: "greet",
        arguments: {},
        requestState: "opaque",
        inputResponses: { who: { action: "accept", content: { name: "Ada" } } },
      },
    });
    requester.receive({ jsonrpc: "2.0", id: 2, result: { resultType: "complete", content: [] } });
    await expect(call).resolves.toEqual({ resultType: "complete", content: [] });
  });

  it("returns input_required results as they are without an input handler, and gives up after maxInputRounds", async () => {
    const plain = harness();
    const call = plain.requester.request("tools/call", { name: "x" });
    await plain.flush();
    plain.requester.receive({ jsonrpc: "2.0", id: 1, result: { resultType: "input_required", requestState: "s" } });
    await expect(call).resolves.toEqual({ resultType: "input_required", requestState: "s" });

    const looping = harness({
      inputHandler: inputHandlerFor({ answerInputRequests: async () => ({ inputResponses: {}, errors: {} }) }),
      maxInputRounds: 2,
    });
    const endless = looping.requester.request("tools/call", { name: "x" });
    for (let id = 1; id <= 3; id++) {
      await looping.flush();
      looping.requester.receive({
        jsonrpc: "2.0",
        id,
        result: { resultType: "input_required", requestState: "again" },
      });
    }
    await expect(endless).rejects.toBeInstanceOf(RpcError);
    expect(looping.sent).toHaveLength(3);
  });

  it("reads the input_required result and writes the retry by the facts it is given, and ignores it where they are null", async () => {
    const asked: unknown[] = [];
    const inputHandler: InputHandler = inputHandlerFor({
      answerInputRequests: async (requests) => {
        asked.push(requests);
        return { inputResponses: { k: { ok: true } }, errors: {} };
      },
    });
    const renamed: RequesterSpec = {
      ...SPEC,
      inputRequired: {
        resultType: { key: "kind", complete: "done", inputRequired: "more" },
        requests: "asks",
        responses: "answers",
        state: "cursor",
      },
    };
    const { sent, requester, flush } = harness({ inputHandler }, renamed);
    const call = requester.request("tools/call", { name: "x" });
    await flush();
    requester.receive({
      jsonrpc: "2.0",
      id: 1,
      result: { kind: "more", cursor: "c1", asks: { k: { method: "roots/list" } } },
    });
    await flush();
    expect(asked).toEqual([{ k: { method: "roots/list" } }]);
    expect(sent[1]?.params).toEqual({
      name: "x",
      cursor: "c1",
      answers: { k: { ok: true } },
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
    });
    requester.receive({ jsonrpc: "2.0", id: 2, result: { resultType: "input_required", inputRequests: {} } });
    await expect(call).resolves.toEqual({ resultType: "input_required", inputRequests: {} });

    const session = harness({ inputHandler }, { ...SPEC, inputRequired: null });
    const plain = session.requester.request("tools/call", { name: "x" });
    await session.flush();
    session.requester.receive({
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "input_required", inputRequests: { k: {} } },
    });
    await expect(plain).resolves.toEqual({ resultType: "input_required", inputRequests: { k: {} } });
    expect(asked).toHaveLength(1);
  });

  it("fails the call with the error of an input request the handler could not answer", async () => {
    const inputHandler: InputHandler = inputHandlerFor({
      answerInputRequests: async () => ({
        inputResponses: {},
        errors: { r: { code: -32601, message: "roots/list not handled" } },
      }),
    });
    const { requester, flush } = harness({ inputHandler });
    const call = requester.request("tools/call", { name: "x" });
    await flush();
    requester.receive({
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "input_required", inputRequests: { r: { method: "roots/list" } } },
    });
    await expect(call).rejects.toMatchObject({ code: -32601, message: "roots/list not handled" });
  });
});

/**
 * JSON-RPC batches (2025-03-26 only, `envelope.batches` in its model): a server may answer a batch with an
 * array and send arrays over its SSE stream. Each element is received in order, as if it came alone.
 */
describe("receiving a batch", () => {
  const legacyBuild: BuildRequest = (method, params, id) => ({
    jsonrpc: "2.0",
    id,
    method,
    ...(params === undefined ? {} : { params }),
  });
  const batching = (batches: boolean) => {
    const sent: Sent[] = [];
    const requester = createRequesterCore(
      { ...SPEC, batches: batches ? receiveBatch : null },
      legacyBuild,
      (message) => void sent.push(message),
    );
    return { sent, requester };
  };
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it("settles every pending call an array answers, and is true when every element was one of its responses", async () => {
    const { requester } = batching(true);
    const calls = [
      requester.request("tools/list", {}),
      requester.request("tools/call", { name: "x" }),
      requester.request("prompts/list", {}),
    ];
    await flush();
    const answer = [
      { jsonrpc: "2.0", id: 3, result: { prompts: [] } },
      { jsonrpc: "2.0", id: 1, result: { tools: [] } },
      { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Unknown tool" } },
    ];
    expect(requester.receive(answer)).toBe(true);
    expect(requester.pending).toBe(0);
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value : (s.reason as RpcError).code))).toEqual([
      { tools: [] },
      -32602,
      { prompts: [] },
    ]);
  });

  it.each([
    ["a request from the peer", { jsonrpc: "2.0", id: 7, method: "roots/list" }],
    ["a notification", { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }],
    ["a response to an unknown id", { jsonrpc: "2.0", id: 99, result: {} }],
    ["a nested array (batches do not nest)", [{ jsonrpc: "2.0", id: 2, result: {} }]],
  ])("still settles its responses beside %s, and is false: the array is the caller's to pass on", async (_, other) => {
    const { requester } = batching(true);
    const first = requester.request("ping", undefined);
    void requester.request("ping", undefined).catch(() => undefined);
    await flush();
    expect(requester.receive([{ jsonrpc: "2.0", id: 1, result: {} }, other])).toBe(false);
    expect(requester.pending).toBe(1);
    await expect(first).resolves.toEqual({});
  });

  it("takes nothing from an empty array", () => {
    expect(batching(true).requester.receive([])).toBe(false);
  });

  it("refuses an array where the release has no batches, settling nothing", async () => {
    const { requester } = batching(false);
    void requester.request("ping", undefined).catch(() => undefined);
    await flush();
    expect(requester.receive([{ jsonrpc: "2.0", id: 1, result: {} }])).toBe(false);
    expect(requester.pending).toBe(1);
  });
});

describe("per release: a 2025-03-26 client takes batched messages, a 2025-06-18 client does not", () => {
  const exchange = async (requester: {
    request(method: "ping", params: undefined): Promise<unknown>;
    receive(message: unknown): boolean;
    readonly pending: number;
  }) => {
    const calls = [requester.request("ping", undefined), requester.request("ping", undefined)];
    await new Promise((resolve) => setImmediate(resolve));
    return calls;
  };
  const answer = [
    { jsonrpc: "2.0", id: 2, result: {} },
    { jsonrpc: "2.0", id: 1, result: {} },
  ];

  it("2025-03-26: a batched response array settles each pending request", async () => {
    const requester = batching.createRequester(() => undefined);
    const calls = await exchange(requester);
    expect(requester.receive(answer)).toBe(true);
    await expect(Promise.all(calls)).resolves.toEqual([{}, {}]);
  });

  it("2025-03-26: what the requester leaves in a batch goes to the client dispatcher, which answers it with an array", async () => {
    const requester = batching.createRequester(() => undefined);
    const dispatcher = batching.createClientDispatcher({ "roots/list": () => ({ roots: [] }) });
    const [call] = await exchange(requester);
    const fromServer = [
      answer[1],
      { jsonrpc: "2.0", id: "s1", method: "roots/list" },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ];
    expect(requester.receive(fromServer)).toBe(false);
    expect(requester.pending).toBe(1);
    await expect(call).resolves.toEqual({});
    expect(await dispatcher.handle(fromServer)).toEqual([{ jsonrpc: "2.0", id: "s1", result: { roots: [] } }]);
  });

  it("2025-06-18: an array is refused as before, and settles nothing", async () => {
    const requester = later.createRequester(() => undefined);
    const calls = await exchange(requester);
    expect(requester.receive(answer)).toBe(false);
    expect(requester.pending).toBe(2);
    requester.close();
    expect((await Promise.allSettled(calls)).map((s) => s.status)).toEqual(["rejected", "rejected"]);
  });
});
