// JSON-RPC batches through the shipped server transports, for the one release whose model allows them (2025-03-26:
// basic#batching, basic/transports "Sending Messages to the Server" and "stdio"): a POST body or a stdio line that is
// an array. Driven from outside (handler.fetch, an in-memory stdio pair, the official SDK v1 client transport over
// node:http), answers judged by Ajv against the 2025-03-26 schema. Every other release keeps refusing an array.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createLineSplitter } from "../../generator/runtime/core/ndjson.ts";
import {
  createHttpHandler,
  createMemorySessionStore,
  serveStdio,
  toNodeListener,
  type HttpHandler,
} from "../../generated/index.js";
import { MAX_BATCH_MESSAGES } from "../../generated/runtime/server/server-eras.js";
import * as batching from "../../generated/2025-03-26/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import { officialSchema } from "../support/official-schema.ts";

const check = officialSchema("2025-03-26");
const URL_ = "http://127.0.0.1/mcp";
const BASE = { host: "127.0.0.1", "content-type": "application/json", accept: "application/json, text/event-stream" };
const INIT_PARAMS = {
  protocolVersion: "2025-03-26",
  capabilities: { roots: {} },
  clientInfo: { name: "c", version: "1" },
};

/** A 2025-03-26 session era: `progress` streams before its result, `roots` asks the client for its roots. */
function batchEra() {
  return batching.sessionEra({
    initialize: () => ({
      protocolVersion: "2025-03-26",
      capabilities: { tools: {} },
      serverInfo: { name: "s", version: "1" },
    }),
    "tools/list": () => ({ tools: [] }),
    "tools/call": async (params, ctx) => {
      if (params.name === "progress") ctx.progress?.({ progress: 1, total: 1 });
      if (params.name === "roots") {
        const { roots } = await ctx.context.request("roots/list", {}, { signal: ctx.signal });
        return { content: [{ type: "text", text: `${roots.length} roots` }] };
      }
      return { content: [{ type: "text", text: params.name }] };
    },
    "notifications/initialized": () => undefined,
  });
}

let handlers: HttpHandler[] = [];
afterEach(() => {
  for (const handler of handlers) handler.close();
  handlers = [];
});

function serve(sessions = batchEra(), sessionStore = createMemorySessionStore()): HttpHandler {
  const handler = createHttpHandler({ sessions, path: "/mcp", sessionStore });
  handlers.push(handler);
  return handler;
}

function post(handler: HttpHandler, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return handler.fetch(
    new Request(URL_, {
      method: "POST",
      headers: { ...BASE, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

async function initialize(handler: HttpHandler, params: object = INIT_PARAMS): Promise<Record<string, string>> {
  const response = await post(handler, { jsonrpc: "2.0", id: 0, method: "initialize", params });
  expect(response.status).toBe(200);
  return { "mcp-session-id": response.headers.get("mcp-session-id")! };
}

const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {}, _meta: { progressToken: `p${id}` } },
});
const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };

/** The messages of an SSE body, in order. */
function events(text: string): unknown[] {
  return text
    .split("\n\n")
    .filter((block) => block.includes("data:"))
    .map(
      (block) =>
        JSON.parse(
          block
            .split("\n")
            .find((line) => line.startsWith("data: "))!
            .slice(6),
        ) as unknown,
    );
}

describe("a 2025-03-26 POST body may be a batch", () => {
  // given a batch body, want the HTTP status and the answered ids in order (null: a member whose id could not be read)
  const rows: { name: string; body: unknown[]; status: number; ids: (number | null)[] | "none"; codes?: number[] }[] = [
    {
      name: "requests beside a notification: one JSON array, in request order",
      body: [call(1, "a"), initialized, list(2)],
      status: 200,
      ids: [1, 2],
    },
    { name: "only notifications: 202, no body", body: [initialized, initialized], status: 202, ids: "none" },
    {
      name: "valid and invalid members each get their own answer",
      body: [
        call(3, "a"),
        42,
        { jsonrpc: "2.0", id: 4, method: "nope" },
        { jsonrpc: "2.0", id: 5, method: "initialize", params: INIT_PARAMS },
        [list(6)],
      ],
      status: 200,
      ids: [3, null, 4, 5, null],
      codes: [0, -32600, -32601, -32600, -32600],
    },
    { name: "an empty batch: one -32600, not an array", body: [], status: 400, ids: [null], codes: [-32600] },
    {
      name: `over ${MAX_BATCH_MESSAGES} members: refused whole, no handler runs`,
      body: Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, i) => call(i, "a")),
      status: 400,
      ids: [null],
      codes: [-32600],
    },
  ];
  it.each(rows)("$name", async ({ body, status, ids, codes }) => {
    const handler = serve();
    const session = await initialize(handler);
    const response = await post(handler, body, session);
    expect(response.status).toBe(status);
    const text = await response.text();
    if (ids === "none") return expect(text).toBe("");
    const answer = JSON.parse(text) as unknown;
    const answers = (Array.isArray(answer) ? answer : [answer]) as { id: number | null; error?: { code: number } }[];
    expect(Array.isArray(answer)).toBe(status === 200);
    expect(answers.map((a) => a.id)).toEqual(ids);
    if (codes !== undefined) expect(answers.map((a) => a.error?.code ?? 0)).toEqual(codes);
    const withIds = answers.filter((a) => a.id !== null);
    if (withIds.length > 0) expect(check("JSONRPCBatchResponse", withIds)).toBeNull();
    expect(handler.pending).toBe(0);
  });

  it("the batches sent above are what the schema calls a JSONRPCBatchRequest", () => {
    expect(check("JSONRPCBatchRequest", [call(1, "a"), initialized, list(2)])).toBeNull();
    expect(check("JSONRPCBatchResponse", [{ jsonrpc: "2.0", id: 1, result: { roots: [] } }])).toBeNull();
  });

  it("with progress, the reply is an SSE stream: the notifications, then one event per response", async () => {
    const handler = serve();
    const session = await initialize(handler);
    const response = await post(handler, [call(1, "progress"), list(2)], session);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const got = events(await response.text()) as { id?: number; method?: string }[];
    expect(got.map((m) => m.method ?? m.id)).toEqual(["notifications/progress", 1, 2]);
    expect(check("JSONRPCBatchResponse", got.slice(1))).toBeNull();
  });

  it("a batch of responses answers the server's request to the client: 202, and the call completes", async () => {
    const handler = serve();
    const session = await initialize(handler);
    const reply = await post(handler, [call(1, "roots")], session);
    const reader = reply.body!.pipeThrough(new TextDecoderStream()).getReader();
    const asked = events((await reader.read()).value!)[0] as { id: number; method: string };
    expect(asked.method).toBe("roots/list");
    const answer = [{ jsonrpc: "2.0", id: asked.id, result: { roots: [{ uri: "file:///a" }] } }];
    expect(check("JSONRPCBatchResponse", answer)).toBeNull();
    expect((await post(handler, answer, session)).status).toBe(202);
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += chunk.value;
    expect(events(rest)).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "1 roots" }] } }]);
    expect(handler.pending).toBe(0);
  });

  it("a batch never opens a session (initialize must not be part of one): 400, whatever routes it", async () => {
    const handler = serve();
    const body = [{ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT_PARAMS }];
    const bare = await post(handler, body);
    expect([bare.status, await bare.json()]).toMatchObject([400, { error: { code: -32600 } }]);
    // A session version header routes the batch to the session era, which still wants a session first.
    const routed = await post(handler, body, { "mcp-protocol-version": "2025-03-26" });
    expect([routed.status, await routed.json()]).toMatchObject([
      400,
      { error: { code: -32600, message: expect.stringMatching(/outside a batch/) } },
    ]);
    expect(handler.sessions).toBe(0);
  });

  it("a release whose model has no batches (2025-11-25) refuses the same array with -32600, as before", async () => {
    const handler = serve(
      legacy.sessionEra({
        initialize: () => ({
          protocolVersion: "2025-11-25",
          capabilities: {},
          serverInfo: { name: "s", version: "1" },
        }),
        "tools/list": () => ({ tools: [] }),
      }),
    );
    const session = await initialize(handler, { ...INIT_PARAMS, protocolVersion: "2025-11-25" });
    const response = await post(handler, [list(1), list(2)], { ...session, "mcp-protocol-version": "2025-11-25" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32600 } });
  });

  it("a batch holding notifications/initialized marks the session ready in its record, for every instance sharing it", async () => {
    const sessionStore = createMemorySessionStore();
    const handler = serve(batchEra(), sessionStore);
    const session = await initialize(handler);
    const id = session["mcp-session-id"]!;
    expect((await post(handler, [list(1)], session)).status).toBe(200);
    expect(await sessionStore.get(id)).toMatchObject({ initialized: true, ready: false });
    expect((await post(handler, [initialized, list(2)], session)).status).toBe(200);
    expect(await sessionStore.get(id)).toMatchObject({ ready: true });
  });
});

describe("the official SDK v1 client transport sends a batch", () => {
  it("and reads the array of responses (Streamable HTTP over node:http)", async () => {
    const handler = serve();
    const server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
    const received: JSONRPCMessage[] = [];
    const arrived = (count: number) =>
      new Promise<void>((resolve) => {
        transport.onmessage = (message) => {
          received.push(message);
          if (received.length === count) resolve();
        };
      });
    try {
      await transport.start();
      let waiting = arrived(1);
      await transport.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT_PARAMS });
      await waiting;
      waiting = arrived(3);
      await transport.send([
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a", arguments: {} } },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ]);
      await waiting;
      expect(received.slice(1)).toEqual([
        { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "a" }] } },
        { jsonrpc: "2.0", id: 2, result: { tools: [] } },
      ]);
    } finally {
      await transport.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("a 2025-03-26 stdio line may be a batch", () => {
  /** Serves the lines (an initialize first) and returns each line written back, parsed, once the input ends. */
  async function lines(sent: string[], sessions: batching.SessionEra = batchEra()): Promise<unknown[]> {
    const input = new PassThrough();
    const out: unknown[] = [];
    const splitter = createLineSplitter((line) => out.push(JSON.parse(line)));
    const server = serveStdio({ sessions, input, output: { write: (chunk: string) => splitter.push(chunk) } });
    input.write(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT_PARAMS }) + "\n");
    for (const line of sent) input.write(line + "\n");
    setTimeout(() => input.end(), 50);
    await server.done;
    // Lines are answered concurrently, so the initialize answer may come anywhere.
    return out.filter((message) => (message as { id?: unknown }).id !== 0);
  }

  it("one array line in, one array line out", async () => {
    const out = await lines([JSON.stringify([call(1, "a"), initialized, list(2)])]);
    expect(out).toHaveLength(1);
    expect((out[0] as { id: number }[]).map((r) => r.id)).toEqual([1, 2]);
    expect(check("JSONRPCBatchResponse", out[0])).toBeNull();
  });

  it("an empty array: one -32600 line; only notifications: nothing", async () => {
    const out = await lines(["[]", JSON.stringify([initialized])]);
    expect(out).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.any(String) } }]);
  });

  it("a release without batches (2025-11-25) answers the array with one -32600", async () => {
    const sessions = legacy.sessionEra({
      initialize: () => ({ protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "s", version: "1" } }),
      "tools/list": () => ({ tools: [] }),
    });
    const out = await lines([JSON.stringify([list(1)])], sessions);
    expect(out).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: -32600 }) })]);
  });
});
