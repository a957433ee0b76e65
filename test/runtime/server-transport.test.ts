// The shipped HTTP server transport, driven from outside through `handler.fetch` (the fetch face a Worker or
// Deno would call) and through node:http (`toNodeListener`): era routing, sessions, SSE that always ends with
// the response, disconnects that abort the handler and leave nothing pending, requests to the client, and
// signed requestState. The generated tree is what a user's project holds.
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createHttpHandler,
  createStateCodec,
  toNodeListener,
  type HttpHandler,
  type HttpServerOptions,
} from "../../generated/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";
import { officialSchema } from "../support/official-schema.ts";

const judge = { modern: officialSchema("2026-07-28"), legacy: officialSchema("2025-11-25") };
const META = {
  [modern.MetaKey.protocolVersion]: "2026-07-28",
  [modern.MetaKey.clientCapabilities]: { elicitation: {} },
};
const URL_ = "http://127.0.0.1/mcp";
const BASE = { host: "127.0.0.1", "content-type": "application/json", accept: "application/json, text/event-stream" };

/** What the handlers saw: the signals they were given, and how often they ran. */
interface Probe {
  signals: AbortSignal[];
  calls: number;
  release?: () => void;
}

function eras(probe: Probe, options: { requestTimeoutMs?: number } = {}) {
  const stateless = modern.statelessEra({
    "tools/call": async (params, ctx) => {
      probe.calls++;
      probe.signals.push(ctx.signal);
      switch (params.name) {
        case "progress":
          for (const progress of [1, 2, 3]) ctx.progress?.({ progress, total: 3 });
          return { content: [{ type: "text", text: "done" }] };
        case "hang":
          ctx.progress?.({ progress: 1 });
          await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
          return { content: [] };
        case "ask": {
          const name = modern.inputResponse(params, "name", "elicitation/create");
          if (name?.action === "accept" && ctx.context.state?.["step"] === 1)
            return { content: [{ type: "text", text: `hi ${String(name.content?.["name"])}` }] };
          return ctx.context.inputRequired(
            {
              name: {
                method: "elicitation/create",
                params: { message: "name?", requestedSchema: { type: "object", properties: {} } },
              },
            },
            { step: 1 },
          );
        }
      }
      return { content: [{ type: "text", text: params.name }] };
    },
  });
  const sessions = legacy.sessionEra(
    {
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: "s", version: "1" },
      }),
      "tools/call": async (params, ctx) => {
        probe.calls++;
        probe.signals.push(ctx.signal);
        switch (params.name) {
          case "progress":
            for (const progress of [1, 2, 3]) ctx.progress?.({ progress, total: 3 });
            return { content: [{ type: "text", text: "done" }] };
          case "hang":
            ctx.progress?.({ progress: 1 });
            await new Promise<void>((resolve) => {
              probe.release = resolve;
              ctx.signal.addEventListener("abort", () => resolve(), { once: true });
            });
            return { content: [{ type: "text", text: "released" }] };
          case "elicit": {
            const answer = await ctx.context.request(
              "elicitation/create",
              { message: "ok?", requestedSchema: { type: "object", properties: {} } },
              { signal: ctx.signal },
            );
            return { content: [{ type: "text", text: "action" in answer ? answer.action : "task" }] };
          }
        }
        return { content: [{ type: "text", text: params.name }] };
      },
    },
    options,
  );
  return { stateless, sessions };
}

let handlers: HttpHandler[] = [];
afterEach(() => {
  for (const handler of handlers) handler.close();
  handlers = [];
});

function serve(probe: Probe, options: Partial<HttpServerOptions> & { requestTimeoutMs?: number } = {}): HttpHandler {
  const { requestTimeoutMs, ...rest } = options;
  const handler = createHttpHandler({
    ...eras(probe, requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    path: "/mcp",
    ...rest,
  });
  handlers.push(handler);
  return handler;
}

function post(
  handler: HttpHandler,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  const init: RequestInit = {
    method: "POST",
    headers: { ...BASE, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
  if (signal !== undefined) init.signal = signal;
  return handler.fetch(new Request(URL_, init));
}

function modernCall(id: number, name: string, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) {
  const message = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: {}, ...extra, _meta: { ...META, ...meta } },
  };
  return { message, headers: { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name } };
}

/** The messages of an SSE body, in order. */
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

async function initialize(handler: HttpHandler): Promise<string> {
  const response = await post(handler, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      clientInfo: { name: "c", version: "1" },
    },
  });
  expect(response.status).toBe(200);
  return response.headers.get("mcp-session-id")!;
}

const inSession = (id: string) => ({ "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" });
const legacyCall = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {}, _meta: { progressToken: "p" } },
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("era routing (basic/transports: sessions for 2025 clients, stateless otherwise)", () => {
  // given the headers and body, want the era that answered (by the answer's shape)
  it.each([
    ["a bare initialize", {}, "initialize", "sessions"],
    [
      "a 2025 MCP-Protocol-Version header",
      { "mcp-protocol-version": "2025-11-25" },
      "tools/list",
      "sessions: 400 without a session",
    ],
    [
      "a 2026 request",
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "x" },
      "tools/call",
      "stateless",
    ],
    ["an unknown session id", { "mcp-session-id": "nope" }, "tools/list", "sessions: 404"],
  ])("%s", async (_, headers, method, want) => {
    const handler = serve({ signals: [], calls: 0 });
    const params =
      method === "initialize"
        ? { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }
        : { name: "x", _meta: META };
    const response = await post(handler, { jsonrpc: "2.0", id: 1, method, params }, headers);
    const body = (await response.json()) as Record<string, unknown>;
    const got =
      response.headers.get("mcp-session-id") !== null
        ? "sessions"
        : response.status === 404
          ? "sessions: 404"
          : response.status === 400
            ? "sessions: 400 without a session"
            : "result" in body && "resultType" in (body["result"] as object)
              ? "stateless"
              : "other";
    expect(got).toBe(want);
  });
});

describe("replies", () => {
  it("a streamed-progress tool delivers every progress event and then its result, last, over SSE (both eras)", async () => {
    const handler = serve({ signals: [], calls: 0 });
    const { message, headers } = modernCall(1, "progress", {}, { progressToken: "t" });
    const modernReply = await post(handler, message, headers);
    expect(modernReply.headers.get("content-type")).toBe("text/event-stream");
    const modernEvents = events(await modernReply.text()).map((event) => event.data);
    expect(modernEvents.map((data) => (data as { method?: string }).method ?? "response")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "response",
    ]);
    expect(modernEvents.at(-1)).toMatchObject({
      id: 1,
      result: { content: [{ text: "done" }], resultType: "complete" },
    });
    for (const data of modernEvents) expect(judge.modern("JSONRPCMessage", data)).toBeNull();

    const session = await initialize(handler);
    const legacyReply = await post(handler, legacyCall(2, "progress"), inSession(session));
    const legacyEvents = events(await legacyReply.text());
    expect(legacyEvents).toHaveLength(4);
    expect(legacyEvents.every((event) => event.id !== undefined)).toBe(true);
    expect(legacyEvents.at(-1)?.data).toMatchObject({ id: 2, result: { content: [{ text: "done" }] } });
    for (const event of legacyEvents) expect(judge.legacy("JSONRPCMessage", event.data)).toBeNull();
    expect(handler.pending).toBe(0);
  });

  it("without progress the reply is JSON, and a notification is 202", async () => {
    const handler = serve({ signals: [], calls: 0 });
    const { message, headers } = modernCall(1, "plain");
    const reply = await post(handler, message, headers);
    expect([reply.status, reply.headers.get("content-type")]).toEqual([200, "application/json"]);
    const note = await post(
      handler,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "notifications/cancelled" },
    );
    expect(note.status).toBe(202);
  });

  // given a request's headers and body, want the HTTP status and JSON-RPC code
  it.each([
    ["a foreign Origin", { origin: "http://evil.example" }, "{}", 403, -32600],
    ["a foreign Host", { host: "evil.example" }, "{}", 403, -32600],
    ["text/plain", { "content-type": "text/plain" }, "{}", 415, -32600],
    ["Accept: text/html", { accept: "text/html" }, "{}", 406, -32600],
    ["a body over the limit", {}, "x".repeat(2000), 413, -32600],
    ["not JSON", { "mcp-protocol-version": "2026-07-28" }, "{", 400, -32700],
    ["a batch (no release here takes one)", { "mcp-protocol-version": "2026-07-28" }, "[]", 400, -32600],
    [
      "a mismatched Mcp-Method",
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      JSON.stringify(modernCall(1, "x").message),
      400,
      -32020,
    ],
  ])("%s", async (_, headers, body, status, code) => {
    const handler = serve({ signals: [], calls: 0 }, { bodyLimit: 1000 });
    const reply = await post(handler, body, headers);
    expect(reply.status).toBe(status);
    expect(((await reply.json()) as { error: { code: number } }).error.code).toBe(code);
  });
});

describe("disconnects", () => {
  it("a client that leaves mid-stream aborts the handler's signal, and nothing stays pending (stateless)", async () => {
    const probe: Probe = { signals: [], calls: 0 };
    const handler = serve(probe);
    const client = new AbortController();
    const { message, headers } = modernCall(1, "hang", {}, { progressToken: "t" });
    const reply = await post(handler, message, headers, client.signal);
    const reader = reply.body!.getReader();
    await reader.read();
    expect(handler.pending).toBe(1);
    await reader.cancel();
    await settle();
    expect(probe.signals[0]?.aborted).toBe(true);
    expect(handler.pending).toBe(0);
  });

  it("a 2025 request outlives a disconnect for the resume window; a reconnect with Last-Event-ID gets the rest", async () => {
    const probe: Probe = { signals: [], calls: 0 };
    const handler = serve(probe, { resumeWindowMs: 10_000 });
    const session = await initialize(handler);
    const reply = await post(handler, legacyCall(5, "hang"), inSession(session));
    const reader = reply.body!.getReader();
    const first = events(new TextDecoder().decode((await reader.read()).value));
    await reader.cancel();
    await settle();
    expect(probe.signals[0]?.aborted).toBe(false);
    probe.release?.();
    await settle();
    const resumed = await handler.fetch(
      new Request(URL_, { method: "GET", headers: { ...BASE, ...inSession(session), "last-event-id": first[0]!.id! } }),
    );
    const rest = events(await resumed.text());
    expect(rest.map((event) => event.data)).toEqual([
      { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: "released" }] } },
    ]);
    expect(handler.pending).toBe(0);
  });

  it("with resumeWindowMs 0 a 2025 disconnect aborts at once, and nothing stays pending", async () => {
    const probe: Probe = { signals: [], calls: 0 };
    const handler = serve(probe, { resumeWindowMs: 0 });
    const session = await initialize(handler);
    const reply = await post(handler, legacyCall(5, "hang"), inSession(session));
    const reader = reply.body!.getReader();
    await reader.read();
    await reader.cancel();
    await settle();
    expect(probe.signals[0]?.aborted).toBe(true);
    expect(handler.pending).toBe(0);
  });

  it("over node:http, a socket closed mid-stream aborts the handler", async () => {
    const probe: Probe = { signals: [], calls: 0 };
    const handler = serve(probe);
    const server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const { message, headers } = modernCall(1, "hang", {}, { progressToken: "t" });
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { ...BASE, ...headers } },
        (res: IncomingMessage) => {
          res.once("data", () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on("error", () => undefined);
      req.end(JSON.stringify(message), () => undefined);
      setTimeout(() => reject(new Error("no first event")), 5000);
    });
    await settle();
    expect(probe.signals[0]?.aborted).toBe(true);
    expect(handler.pending).toBe(0);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("2025 sessions", () => {
  it("1,000 concurrent sessions open and close cleanly", async () => {
    const handler = serve({ signals: [], calls: 0 });
    const ids = await Promise.all(Array.from({ length: 1000 }, () => initialize(handler)));
    expect(new Set(ids).size).toBe(1000);
    expect(handler.sessions).toBe(1000);
    const closed = await Promise.all(
      ids.map((id) => handler.fetch(new Request(URL_, { method: "DELETE", headers: { ...BASE, ...inSession(id) } }))),
    );
    expect(closed.every((reply) => reply.status === 204)).toBe(true);
    expect([handler.sessions, handler.pending]).toEqual([0, 0]);
    const after = await post(handler, legacyCall(1, "x"), inSession(ids[0]!));
    expect(after.status).toBe(404);
  });

  it("an idle session expires and its id then gets 404", async () => {
    let time = 0;
    const handler = serve({ signals: [], calls: 0 }, { sessionIdleMs: 1000, now: () => time });
    const session = await initialize(handler);
    time = 500;
    expect((await post(handler, legacyCall(1, "x"), inSession(session))).status).toBe(200);
    time = 2000;
    expect((await post(handler, legacyCall(2, "x"), inSession(session))).status).toBe(404);
    expect(handler.sessions).toBe(0);
  });

  it("a session whose client holds its GET stream open does not expire, and has the idle time to come back after it drops", async () => {
    let time = 0;
    const handler = serve({ signals: [], calls: 0 }, { sessionIdleMs: 1000, now: () => time });
    const session = await initialize(handler);
    const other = await initialize(handler);
    const stream = await handler.fetch(
      new Request(URL_, { method: "GET", headers: { ...BASE, accept: "text/event-stream", ...inSession(session) } }),
    );
    const reader = stream.body!.getReader();
    // Requests on another session drive the sweep while this one only listens.
    for (time = 800; time <= 4800; time += 800)
      expect((await post(handler, legacyCall(1, "x"), inSession(other))).status).toBe(200);
    time = 5000;
    await reader.cancel();
    time = 5500;
    expect((await post(handler, legacyCall(2, "x"), inSession(session))).status).toBe(200);
    time = 7000;
    expect((await post(handler, legacyCall(3, "x"), inSession(session))).status).toBe(404);
  });

  it("past maxSessions an initialize gets 503 with Retry-After and its id; a closed session makes room", async () => {
    const handler = serve({ signals: [], calls: 0 }, { maxSessions: 1 });
    const first = await initialize(handler);
    // A session that finished initializing holds its slot (one that never did gives way to a new one).
    await post(handler, { jsonrpc: "2.0", method: "notifications/initialized" }, inSession(first));
    const refused = await post(handler, {
      jsonrpc: "2.0",
      id: 9,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    });
    expect([refused.status, refused.headers.get("retry-after"), refused.headers.get("mcp-session-id")]).toEqual([
      503,
      "60",
      null,
    ]);
    expect(await refused.json()).toMatchObject({ id: 9, error: { code: -32603 } });
    expect(handler.sessions).toBe(1);
    await handler.fetch(new Request(URL_, { method: "DELETE", headers: { ...BASE, ...inSession(first) } }));
    await initialize(handler);
    expect(handler.sessions).toBe(1);
  });

  it("an idle session expires on a timer too, with no request arriving; close() clears the timer", async () => {
    vi.useFakeTimers();
    try {
      const handler = serve({ signals: [], calls: 0 }, { sessionIdleMs: 1000 });
      expect(vi.getTimerCount()).toBe(0); // no session, no timer
      const session = await initialize(handler);
      expect([handler.sessions, vi.getTimerCount()]).toEqual([1, 1]);
      await vi.advanceTimersByTimeAsync(1500);
      expect([handler.sessions, vi.getTimerCount()]).toEqual([0, 0]);
      expect((await post(handler, legacyCall(1, "x"), inSession(session))).status).toBe(404);
      await initialize(handler);
      expect(vi.getTimerCount()).toBe(1);
      handler.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("the expiry timer is unref'd, so it never keeps a Node process alive", async () => {
    const timers: { hasRef(): boolean }[] = [];
    const real = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((callback: () => void, ms: number) => {
      const timer = real(callback, ms);
      timers.push(timer);
      return timer;
    }) as typeof setTimeout);
    try {
      const handler = serve({ signals: [], calls: 0 });
      await initialize(handler);
      expect(timers.length).toBeGreaterThan(0);
      expect(timers.map((timer) => timer.hasRef())).not.toContain(true);
    } finally {
      spy.mockRestore();
    }
  });

  it("a handler's request to the client goes out on its stream and the POSTed answer completes it", async () => {
    const handler = serve({ signals: [], calls: 0 });
    const session = await initialize(handler);
    const reply = await post(handler, legacyCall(3, "elicit"), inSession(session));
    const reader = reply.body!.getReader();
    const asked = events(new TextDecoder().decode((await reader.read()).value))[0]!.data as {
      id: number;
      method: string;
    };
    expect(asked.method).toBe("elicitation/create");
    expect(handler.pending).toBe(2);
    const answered = await post(
      handler,
      { jsonrpc: "2.0", id: asked.id, result: { action: "decline" } },
      inSession(session),
    );
    expect(answered.status).toBe(202);
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(events(rest).at(-1)?.data).toMatchObject({ id: 3, result: { content: [{ text: "decline" }] } });
    expect(handler.pending).toBe(0);
  });

  it("a client that takes JSON alone gets a handler's request to it on the session's GET stream, then the JSON reply", async () => {
    const handler = serve({ signals: [], calls: 0 });
    const session = await initialize(handler);
    const stream = await handler.fetch(
      new Request(URL_, { method: "GET", headers: { ...BASE, accept: "text/event-stream", ...inSession(session) } }),
    );
    expect(stream.status).toBe(200);
    const replied = post(handler, legacyCall(5, "elicit"), { ...inSession(session), accept: "application/json" });
    const reader = stream.body!.getReader();
    const asked = events(new TextDecoder().decode((await reader.read()).value))[0]!.data as {
      id: number;
      method: string;
    };
    expect(asked.method).toBe("elicitation/create");
    await post(handler, { jsonrpc: "2.0", id: asked.id, result: { action: "decline" } }, inSession(session));
    const reply = await replied;
    expect(reply.headers.get("content-type")).toBe("application/json");
    expect(await reply.json()).toMatchObject({ id: 5, result: { content: [{ text: "decline" }] } });
    await reader.cancel();
    expect(handler.pending).toBe(0);
  });

  it("an unanswered request to the client times out into the handler's error, and nothing stays pending", async () => {
    const handler = serve({ signals: [], calls: 0 }, { requestTimeoutMs: 50, onError: () => undefined });
    const session = await initialize(handler);
    const reply = await post(handler, legacyCall(4, "elicit"), inSession(session));
    const all = events(await reply.text()).map((event) => event.data);
    expect(all[0]).toMatchObject({ method: "elicitation/create" });
    expect(all.at(-1)).toMatchObject({ id: 4, error: { code: -32603 } });
    expect(handler.pending).toBe(0);
  });

  it("DELETE ends the session; GET without one is 405", async () => {
    const handler = serve({ signals: [], calls: 0 });
    const session = await initialize(handler);
    const get = await handler.fetch(new Request(URL_, { method: "GET", headers: BASE }));
    expect(get.status).toBe(405);
    const del = await handler.fetch(
      new Request(URL_, { method: "DELETE", headers: { ...BASE, ...inSession(session) } }),
    );
    expect(del.status).toBe(204);
    expect(handler.sessions).toBe(0);
  });
});

describe("input_required and requestState (stateless)", () => {
  it("the state comes back verified; a tampered or foreign state never reaches the handler", async () => {
    const probe: Probe = { signals: [], calls: 0 };
    const handler = serve(probe);
    const first = modernCall(1, "ask");
    const asked = (await (await post(handler, first.message, first.headers)).json()) as {
      result: { resultType: string; requestState: string };
    };
    expect(asked.result.resultType).toBe("input_required");
    expect(judge.modern("JSONRPCMessage", asked)).toBeNull();
    const answers = { inputResponses: { name: { action: "accept", content: { name: "Ada" } } } };
    const retry = modernCall(2, "ask", { ...answers, requestState: asked.result.requestState });
    expect(await (await post(handler, retry.message, retry.headers)).json()).toMatchObject({
      result: { content: [{ text: "hi Ada" }] },
    });

    const forged = await createStateCodec().sign(
      { step: 1 },
      { method: "tools/call", params: { name: "ask", arguments: {} } },
    );
    const [payload, mac] = asked.result.requestState.split(".");
    for (const state of [forged, `${payload}x.${mac}`, "nope"]) {
      const calls = probe.calls;
      const bad = modernCall(3, "ask", { ...answers, requestState: state });
      const reply = await post(handler, bad.message, bad.headers);
      expect(reply.status).toBe(400);
      expect(await reply.json()).toMatchObject({ id: 3, error: { code: -32602 } });
      expect(probe.calls).toBe(calls);
    }
  });
});
