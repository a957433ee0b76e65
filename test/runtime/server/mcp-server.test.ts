// runtime/server/mcp-server.ts from outside: one server declared with createMcpServer, served by the
// eras of 2026-07-28 and 2025-11-25 (each release's MCP_RELEASE) and driven as a transport drives them.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import * as legacy from "../../../generated/2025-11-25/index.js";
import * as older from "../../../generated/2025-06-18/index.js";
import * as batching from "../../../generated/2025-03-26/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";
import { standardSchema } from "../../../generated/2026-07-28/validate.js";
import {
  connect,
  createHttpHandler,
  createMcpServer,
  createMemoryEventStore,
  createMemoryMessageBus,
  createMemorySessionStore,
  httpTransport,
  LEGACY_VERSIONS,
  serveStdio,
  stdioTransport,
  type HttpServerOptions,
  type ListKind,
  type ServedEras,
} from "../../../generated/index.js";
import { createLineSplitter, encodeLine } from "../../../generated/runtime/core/ndjson.js";
import { checkEnvelope, type WireMessage } from "../../../generated/runtime/core/jsonrpc.js";
import type { TransportContext } from "../../../generated/runtime/server/server-eras.js";
import type { StandardSchema } from "../../../generated/runtime/validation/standard-schema.js";
import { emitServerTools } from "../../../generator/emit/server-tools.ts";
import { PACKAGE_ROOT } from "../../../generator/project/project.ts";
import { snapshotOf } from "../../../generator/tools/snapshot.ts";
import { toolSet } from "../../../generator/tools/tool-set.ts";
import { GENERATED_DIR } from "../../support/test-tree.ts";

const META = {
  [modern.MetaKey.protocolVersion]: "2026-07-28",
  [modern.MetaKey.clientCapabilities]: {},
};

function wire(value: object): WireMessage {
  const checked = checkEnvelope(value);
  if (!checked.ok) throw new Error("not a JSON-RPC message");
  return checked.message;
}

function base(): TransportContext & { readonly sent: object[] } {
  const sent: object[] = [];
  return { headers: {}, send: (message) => sent.push(message), sent };
}

const WEATHER_IN = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
} as const;
const WEATHER_OUT = {
  type: "object",
  properties: { tempC: { type: "number" } },
  required: ["tempC"],
} as const;

/** A server with a tool, a prompt, a resource and a template, and the eras serving it. */
function declared(options: { pageSize?: number; badOutput?: boolean } = {}) {
  const server = createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], {
    info: { name: "test-server", version: "1.0.0" },
    ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
  });
  const seen: { era: string; version: string }[] = [];
  server
    .tool({ name: "weather", inputSchema: WEATHER_IN, outputSchema: WEATHER_OUT }, ({ city }, ctx) => {
      seen.push({ era: ctx.era, version: ctx.version });
      ctx.log("info", `asked for ${city}`);
      const tempC = (options.badOutput === true ? "hot" : 21) as number;
      return { content: [{ type: "text", text: `${city}: ${tempC}` }], structuredContent: { tempC } };
    })
    .tool({ name: "boom" }, () => {
      throw new Error("secret internals");
    })
    .prompt(
      {
        name: "greet",
        arguments: [{ name: "who", required: true }],
        complete: { who: (value) => ["world", "wombat", "moon"].filter((v) => v.startsWith(value)) },
      },
      ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello ${who}` } }] }),
    )
    .resource({ uri: "test://a", name: "a", mimeType: "text/plain" }, (uri) => ({
      contents: [{ uri, text: "A" }],
    }))
    .resourceTemplate(
      { uriTemplate: "test://items/{id}{?rev}", name: "items", complete: { id: () => ["1", "2"] } },
      (uri, { id, rev }) => ({ contents: [{ uri, text: `${id}@${rev ?? "head"}` }] }),
    );
  server.only("stateless").tool({ name: "modern-only" }, () => ({ content: [] }));
  const eras = server.eras();
  if (eras.stateless === undefined || eras.sessions === undefined) throw new Error("both eras");
  const stateless = eras.stateless;
  const sessions = eras.sessions;
  const session = sessions.open("s1");
  let id = 0;
  return {
    server,
    seen,
    /** A 2026-07-28 request's result or error. */
    async modern(method: string, params: object = {}, context = base()) {
      const response = await stateless.handle(
        wire({
          jsonrpc: "2.0",
          id: ++id,
          method,
          params: { ...params, _meta: { ...META, ...(params as { _meta?: object })._meta } },
        }),
        context,
        undefined,
      );
      return response as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    },
    /** A 2025-11-25 session request's result or error (the session initialized first by the caller). */
    async legacy(method: string, params: object = {}, context = base()) {
      const response = await sessions.handle(
        session,
        wire({ jsonrpc: "2.0", id: ++id, method, params }),
        context,
        undefined,
        () => undefined,
      );
      return response as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    },
  };
}

const INIT = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "c", version: "1" },
};

describe("one declaration, both eras", () => {
  it("answers the same tool call in 2026-07-28 and in a 2025 session, ctx naming the era and release", async () => {
    const s = declared();
    const now = await s.modern("tools/call", { name: "weather", arguments: { city: "Oslo" } });
    await s.legacy("initialize", INIT);
    const then = await s.legacy("tools/call", { name: "weather", arguments: { city: "Oslo" } });
    expect(now.result).toMatchObject({ structuredContent: { tempC: 21 }, resultType: "complete" });
    expect(then.result).toMatchObject({ structuredContent: { tempC: 21 } });
    expect(then.result).not.toHaveProperty("resultType");
    expect(s.seen).toEqual([
      { era: "stateless", version: "2026-07-28" },
      { era: "sessions", version: "2025-11-25" },
    ]);
  });

  it("derives initialize's and server/discover's capabilities, server info and lists from the declarations", async () => {
    const s = declared();
    const discover = await s.modern("server/discover");
    const init = await s.legacy("initialize", INIT);
    const capabilities = {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    };
    expect(discover.result).toMatchObject({
      supportedVersions: ["2026-07-28"],
      capabilities: { ...capabilities, resources: { listChanged: true, subscribe: true } },
      _meta: { [modern.MetaKey.serverInfo]: { name: "test-server", version: "1.0.0" } },
    });
    expect(init.result).toMatchObject({
      protocolVersion: "2025-11-25",
      capabilities: { ...capabilities, resources: { listChanged: true, subscribe: true } },
      serverInfo: { name: "test-server", version: "1.0.0" },
    });
    const modernTools = await s.modern("tools/list");
    const legacyTools = await s.legacy("tools/list");
    const names = (result: Record<string, unknown> | undefined) =>
      (result?.["tools"] as { name: string }[]).map((t) => t.name);
    expect(names(modernTools.result)).toEqual(["weather", "boom", "modern-only"]);
    expect(names(legacyTools.result)).toEqual(["weather", "boom"]);
    expect(modernTools.result).toMatchObject({ cacheScope: "public", ttlMs: 300_000 });
    expect((modernTools.result?.["tools"] as object[])[0]).toEqual({
      name: "weather",
      inputSchema: WEATHER_IN,
      outputSchema: WEATHER_OUT,
    });
  });

  it("pages every list by cursor and refuses a cursor it did not give", async () => {
    const s = declared({ pageSize: 2 });
    const first = await s.modern("tools/list");
    expect(first.result).toMatchObject({ nextCursor: "2" });
    const second = await s.modern("tools/list", { cursor: first.result?.["nextCursor"] });
    expect((second.result?.["tools"] as { name: string }[]).map((t) => t.name)).toEqual(["modern-only"]);
    expect(second.result).not.toHaveProperty("nextCursor");
    expect((await s.modern("tools/list", { cursor: "x" })).error?.code).toBe(-32602);
    expect((await s.modern("tools/list", { cursor: "99" })).error?.code).toBe(-32602);
  });
});

describe("tools", () => {
  it("answers arguments that do not fit the inputSchema with a tool error (2025-11-25 on), the handler not run", async () => {
    const s = declared();
    const answer = await s.modern("tools/call", { name: "weather", arguments: { city: 42 } });
    expect(answer.result).toMatchObject({ isError: true });
    expect(JSON.stringify(answer.result)).toContain("/city: expected string, got 42");
    expect(s.seen).toEqual([]);
  });

  it("answers them -32602 in a release before 2025-11-25 (its tools page)", async () => {
    const server = createMcpServer([older.MCP_RELEASE], { info: { name: "t", version: "1" } });
    server.tool({ name: "weather", inputSchema: WEATHER_IN }, () => ({ content: [] }));
    const era = server.eras().sessions!;
    const session = era.open(undefined);
    const call = (id: number, method: string, params: object) =>
      era.handle(session, wire({ jsonrpc: "2.0", id, method, params }), base(), undefined, () => undefined);
    await call(1, "initialize", { ...INIT, protocolVersion: "2025-06-18" });
    const answer = (await call(2, "tools/call", { name: "weather", arguments: {} })) as { error?: { code: number } };
    expect(answer.error?.code).toBe(-32602);
  });

  it("answers an unknown tool -32602 and a tool of the other era as unknown", async () => {
    const s = declared();
    await s.legacy("initialize", INIT);
    expect((await s.modern("tools/call", { name: "nope", arguments: {} })).error?.code).toBe(-32602);
    expect((await s.legacy("tools/call", { name: "modern-only", arguments: {} })).error?.code).toBe(-32602);
  });

  it("refuses a structuredContent that does not fit the outputSchema before it leaves", async () => {
    const s = declared({ badOutput: true });
    const answer = await s.modern("tools/call", { name: "weather", arguments: { city: "Oslo" } });
    expect(answer.error).toEqual({ code: -32603, message: "Internal error" });
  });

  it("answers a handler's throw -32603 without its message", async () => {
    const s = declared();
    const answer = await s.modern("tools/call", { name: "boom", arguments: {} });
    expect(answer.error).toEqual({ code: -32603, message: "Internal error" });
    expect(JSON.stringify(answer)).not.toContain("secret");
  });
});

describe("logging", () => {
  it("sends a stateless request's log messages at or above the level its _meta asks for, none without one", async () => {
    const s = declared();
    const asked = base();
    await s.modern(
      "tools/call",
      { name: "weather", arguments: { city: "Oslo" }, _meta: { [modern.MetaKey.logLevel]: "info" } },
      asked,
    );
    const quiet = base();
    await s.modern(
      "tools/call",
      { name: "weather", arguments: { city: "Oslo" }, _meta: { [modern.MetaKey.logLevel]: "warning" } },
      quiet,
    );
    const none = base();
    await s.modern("tools/call", { name: "weather", arguments: { city: "Oslo" } }, none);
    expect(asked.sent).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", logger: "test-server", data: "asked for Oslo" },
      },
    ]);
    expect(quiet.sent).toEqual([]);
    expect(none.sent).toEqual([]);
  });

  it("filters a session's log messages by the level logging/setLevel chose", async () => {
    const s = declared();
    await s.legacy("initialize", INIT);
    const before = base();
    await s.legacy("tools/call", { name: "weather", arguments: { city: "Oslo" } }, before);
    await s.legacy("logging/setLevel", { level: "error" });
    const after = base();
    await s.legacy("tools/call", { name: "weather", arguments: { city: "Oslo" } }, after);
    expect(before.sent).toHaveLength(1);
    expect(after.sent).toEqual([]);
  });
});

describe("prompts, resources and completion", () => {
  it("renders a prompt, refusing a missing required argument and an unknown prompt with -32602", async () => {
    const s = declared();
    const ok = await s.modern("prompts/get", { name: "greet", arguments: { who: "you" } });
    expect(ok.result).toMatchObject({ messages: [{ role: "user", content: { type: "text", text: "Hello you" } }] });
    const missing = await s.modern("prompts/get", { name: "greet", arguments: {} });
    expect(missing.error).toMatchObject({ code: -32602, message: "Missing required argument: who" });
    expect((await s.modern("prompts/get", { name: "nope" })).error?.code).toBe(-32602);
  });

  it("reads a static resource, a template's URI with its variables, and refuses an unknown URI", async () => {
    const s = declared();
    expect((await s.modern("resources/read", { uri: "test://a" })).result).toMatchObject({
      contents: [{ uri: "test://a", text: "A" }],
      cacheScope: "private",
    });
    expect((await s.modern("resources/read", { uri: "test://items/7?rev=3" })).result).toMatchObject({
      contents: [{ text: "7@3" }],
    });
    expect((await s.modern("resources/read", { uri: "test://items/7" })).result).toMatchObject({
      contents: [{ text: "7@head" }],
    });
    expect((await s.modern("resources/read", { uri: "test://b" })).error?.code).toBe(-32602);
    const templates = await s.modern("resources/templates/list");
    expect(templates.result?.["resourceTemplates"]).toEqual([
      { uriTemplate: "test://items/{id}{?rev}", name: "items" },
    ]);
  });

  it("completes prompt arguments and template variables, and answers no values for what has no completer", async () => {
    const s = declared();
    const prompt = await s.modern("completion/complete", {
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "who", value: "w" },
    });
    expect(prompt.result).toMatchObject({ completion: { values: ["world", "wombat"], total: 2, hasMore: false } });
    const template = await s.modern("completion/complete", {
      ref: { type: "ref/resource", uri: "test://items/{id}{?rev}" },
      argument: { name: "id", value: "" },
    });
    expect(template.result).toMatchObject({ completion: { values: ["1", "2"] } });
    const none = await s.modern("completion/complete", {
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "other", value: "" },
    });
    expect(none.result).toMatchObject({ completion: { values: [], total: 0, hasMore: false } });
  });
});

describe("list changes", () => {
  it("tells a stateless subscriber when a tool is declared or removed, and ends its stream on close", async () => {
    const s = declared();
    const stream = base();
    const listening = s.modern("subscriptions/listen", { notifications: { toolsListChanged: true } }, stream);
    await new Promise((resolve) => setTimeout(resolve, 0));
    s.server.tool({ name: "late" }, () => ({ content: [] }));
    expect(s.server.remove("tools", "late")).toBe(true);
    s.server.listChanged("prompts");
    s.server.close();
    expect((await listening).result).toBeDefined();
    expect(stream.sent.map((m) => (m as { method: string }).method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
      "notifications/tools/list_changed",
    ]);
  });

  it("tells a stateless listener of the resources it subscribed to (resourceSubscriptions) when resourceUpdated names one", async () => {
    const s = declared();
    const stream = inbox<{ method: string; params: { uri?: string; notifications?: object } }>();
    const listening = s.modern(
      "subscriptions/listen",
      { notifications: { resourceSubscriptions: ["test://a"] } },
      { ...base(), send: (message: object) => stream.push(message as never) },
    );
    expect((await stream.next()).params.notifications).toEqual({ resourceSubscriptions: ["test://a"] });
    s.server.resourceUpdated("test://b");
    s.server.resourceUpdated("test://a");
    expect(await stream.next()).toMatchObject({
      method: "notifications/resources/updated",
      params: { uri: "test://a" },
    });
    s.server.close();
    expect((await listening).result).toBeDefined();
  });

  it("refuses a name declared twice for the same era", () => {
    const server = createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], { info: { name: "t", version: "1" } });
    server.only("stateless").tool({ name: "x" }, () => ({ content: [] }));
    server.only("sessions").tool({ name: "x" }, () => ({ content: [] }));
    expect(() => server.tool({ name: "x" }, () => ({ content: [] }))).toThrow(RangeError);
  });
});

/** What arrives, in order, each taken by one `next()` (which waits for it when it has not come yet). */
function inbox<T>() {
  const items: T[] = [];
  const waiting: ((item: T) => void)[] = [];
  return {
    push(item: T): void {
      const taker = waiting.shift();
      if (taker === undefined) items.push(item);
      else taker(item);
    },
    next(): Promise<T> {
      return items.length > 0 ? Promise.resolve(items.shift()!) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

const INFO = { name: "changing-server", version: "1.0.0" };
const nothing = () => ({ content: [] });
const names = (listed: { tools: readonly { name: string }[] }) => listed.tools.map((tool) => tool.name);

/** A server for both eras with one tool, whose 2025 era takes every older version (the SDK's clients offer their own). */
function changing() {
  const server = createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], { info: INFO });
  server.tool({ name: "first" }, nothing);
  server.resource({ uri: "test://watched", name: "watched" }, (uri) => ({ contents: [{ uri, text: "W" }] }));
  return server;
}

const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/**
 * `eras` behind `createHttpHandler`, in-process: `fetch` for a client, and `listening`, settled once a standalone
 * GET stream was opened (what a session's client hears outside its requests comes on it).
 */
function overHttp(eras: ServedEras, options: Partial<HttpServerOptions> = {}) {
  const handler = createHttpHandler({ ...eras, path: "/mcp", ...options });
  closing.push(() => handler.close());
  let opened: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (opened = resolve));
  const fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    // As node:http would give it: a Request made here has no Host, which the DNS-rebinding check wants.
    request.headers.set("host", new URL(request.url).host);
    const response = await handler.fetch(request);
    if (init?.method === "GET" && response.status === 200) opened();
    return response;
  };
  return { handler, fetch, listening };
}

/** `eras` served over stdio, in-process: the SDK v1 client's transport over the two pipes. */
function sdkOverStdio(eras: ServedEras): Transport {
  const input = new PassThrough();
  const transport: Transport = {
    start: () => Promise.resolve(),
    send: (message) => (input.write(encodeLine(message)), Promise.resolve()),
    close: () => (input.end(), transport.onclose?.(), Promise.resolve()),
  };
  const lines = createLineSplitter((line) => transport.onmessage?.(JSON.parse(line) as JSONRPCMessage));
  const served = serveStdio({ ...eras, input, output: { write: (chunk: string) => lines.push(chunk) } });
  closing.push(() => (input.end(), served.done));
  return transport;
}

/** An SDK v1 client that records the tool list changes and resource updates it hears. */
async function sdkClient(transport: Transport) {
  const client = new Client({ name: "sdk-v1-client", version: "1.0.0" });
  const heard = inbox<string>();
  client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => heard.push(n.method));
  client.setNotificationHandler(PromptListChangedNotificationSchema, (n) => heard.push(n.method));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => heard.push(`${n.method} ${n.params.uri}`));
  await client.connect(transport);
  closing.push(() => client.close());
  return { client, heard };
}

const TOOLS_CHANGED = "notifications/tools/list_changed";
const PROMPTS_CHANGED = "notifications/prompts/list_changed";
const RESOURCE_UPDATED = "notifications/resources/updated";
const URL_ = "http://127.0.0.1/mcp";

describe("list changes reach 2025 sessions", () => {
  it("an SDK v1 client over HTTP hears, on its GET stream, a tool declared and removed after it connected", async () => {
    const server = changing();
    const http = overHttp(server.eras({ sessions: { versions: LEGACY_VERSIONS } }));
    const { client, heard } = await sdkClient(new StreamableHTTPClientTransport(new URL(URL_), { fetch: http.fetch }));
    await http.listening;
    server.tool({ name: "late" }, nothing);
    expect(await heard.next()).toBe(TOOLS_CHANGED);
    expect(names(await client.listTools())).toEqual(["first", "late"]);
    expect(server.remove("tools", "late")).toBe(true);
    expect(await heard.next()).toBe(TOOLS_CHANGED);
    expect(names(await client.listTools())).toEqual(["first"]);
  });

  it("an SDK v1 client over stdio hears a tool declared and removed after it connected", async () => {
    const server = changing();
    const { client, heard } = await sdkClient(sdkOverStdio(server.eras({ sessions: { versions: LEGACY_VERSIONS } })));
    // Lines are handled in order: once the ping is answered, so is the initialized notification before it.
    await client.ping();
    server.tool({ name: "late" }, nothing);
    expect(await heard.next()).toBe(TOOLS_CHANGED);
    expect(names(await client.listTools())).toEqual(["first", "late"]);
    server.remove("tools", "late");
    expect(await heard.next()).toBe(TOOLS_CHANGED);
    expect(names(await client.listTools())).toEqual(["first"]);
  });

  it("our own client hears them over HTTP and over stdio", async () => {
    const server = changing();
    const eras = server.eras();
    const heard = inbox<string>();
    const release = legacy.clientRelease({
      dispatcher: legacy.createClientDispatcher({
        "notifications/tools/list_changed": () => heard.push(TOOLS_CHANGED),
      }),
    });
    const http = overHttp(eras);
    const overHttpSession = await connect(httpTransport(URL_, { fetch: http.fetch }), {
      releases: [release],
      clientInfo: { name: "ours", version: "1" },
    });
    closing.push(() => overHttpSession.close());
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const served = serveStdio({ ...eras, input: toServer, output: fromServer });
    closing.push(() => (toServer.end(), served.done));
    const overStdio = await connect(stdioTransport({ readable: fromServer, writable: toServer }), {
      releases: [release],
      clientInfo: { name: "ours", version: "1" },
    });
    closing.push(() => overStdio.close());
    await Promise.all([http.listening, overStdio.request("ping", {})]);
    server.tool({ name: "late" }, nothing);
    expect([await heard.next(), await heard.next()]).toEqual([TOOLS_CHANGED, TOOLS_CHANGED]);
    for (const session of [overHttpSession, overStdio])
      expect(names((await session.request("tools/list", {})) as { tools: { name: string }[] })).toEqual([
        "first",
        "late",
      ]);
    server.remove("tools", "late");
    expect([await heard.next(), await heard.next()]).toEqual([TOOLS_CHANGED, TOOLS_CHANGED]);
  });

  it("tells a session over HTTP nothing until its client sent notifications/initialized", async () => {
    const server = changing();
    const http = overHttp(server.eras());
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await http.fetch(URL_, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT }),
    });
    const inSession = {
      ...headers,
      "mcp-session-id": init.headers.get("mcp-session-id")!,
      "mcp-protocol-version": "2025-11-25",
    };
    const stream = await http.fetch(URL_, { method: "GET", headers: { ...inSession, accept: "text/event-stream" } });
    expect(stream.status).toBe(200);
    const events = sseMessages(stream);
    server.prompt({ name: "before" }, () => ({ messages: [] }));
    const initialized = await http.fetch(URL_, {
      method: "POST",
      headers: inSession,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect(initialized.status).toBe(202);
    server.tool({ name: "after" }, nothing);
    // The prompt declared before the client was initialized told it nothing: the first it hears is the tool.
    expect(await events.next()).toEqual({ jsonrpc: "2.0", method: TOOLS_CHANGED });
  });

  it("tells a session over stdio nothing until its client sent notifications/initialized", async () => {
    const server = changing();
    const input = new PassThrough();
    const out = inbox<{ id?: number; method?: string }>();
    const lines = createLineSplitter((line) => out.push(JSON.parse(line) as { id?: number; method?: string }));
    const served = serveStdio({ ...server.eras(), input, output: { write: (chunk: string) => lines.push(chunk) } });
    closing.push(() => (input.end(), served.done));
    input.write(encodeLine({ jsonrpc: "2.0", id: 1, method: "initialize", params: INIT }));
    expect(await out.next()).toMatchObject({ id: 1 });
    server.prompt({ name: "before" }, () => ({ messages: [] }));
    input.write(encodeLine({ jsonrpc: "2.0", method: "notifications/initialized" }));
    input.write(encodeLine({ jsonrpc: "2.0", id: 2, method: "ping" }));
    expect(await out.next()).toMatchObject({ id: 2 });
    server.tool({ name: "after" }, nothing);
    expect(await out.next()).toEqual({ jsonrpc: "2.0", method: TOOLS_CHANGED });
  });

  it('tells a session only about its era: a change through only("stateless") reaches no session', async () => {
    const server = changing();
    const { client, heard } = await sdkClient(sdkOverStdio(server.eras({ sessions: { versions: LEGACY_VERSIONS } })));
    await client.ping();
    server.only("stateless").tool({ name: "modern-only" }, nothing);
    server.only("stateless").listChanged("tools");
    server.only("sessions").listChanged("prompts");
    expect(await heard.next()).toBe(PROMPTS_CHANGED);
  });

  it("tells the sessions subscribed to a resource that it was updated (resourceUpdated), and no others", async () => {
    const server = changing();
    const http = overHttp(server.eras({ sessions: { versions: LEGACY_VERSIONS } }));
    const transport = new StreamableHTTPClientTransport(new URL(URL_), { fetch: http.fetch });
    const { client, heard } = await sdkClient(transport);
    await http.listening;
    await client.subscribeResource({ uri: "test://watched" });
    server.resourceUpdated("test://elsewhere");
    server.resourceUpdated("test://watched");
    expect(await heard.next()).toBe("notifications/resources/updated test://watched");
    await client.unsubscribeResource({ uri: "test://watched" });
    server.resourceUpdated("test://watched");
    server.listChanged("tools");
    expect(await heard.next()).toBe(TOOLS_CHANGED);
  });

  it("in a fleet sharing a bus, each instance tells the sessions whose stream it holds: a session hears a change once", async () => {
    const { a, b, announce } = await fleet();
    const session = await a.open();
    await a.post(session, { jsonrpc: "2.0", method: "notifications/initialized" });
    // The session's GET stream is held by the other instance, which finds the session in the store.
    const events = await b.listen(session);
    await announce({ kind: "tools" });
    await announce({ kind: "prompts" });
    expect(await events.next()).toEqual({ jsonrpc: "2.0", method: TOOLS_CHANGED });
    expect(await events.next()).toEqual({ jsonrpc: "2.0", method: PROMPTS_CHANGED });
  });

  it("in a fleet, the instance holding a session's stream tells it of the resources it subscribed to through any instance", async () => {
    const { a, b, announce } = await fleet();
    const session = await a.open();
    await a.post(session, { jsonrpc: "2.0", method: "notifications/initialized" });
    const events = await b.listen(session);
    const subscription = (id: number, method: string, uri: string) => ({ jsonrpc: "2.0", id, method, params: { uri } });
    expect((await a.post(session, subscription(2, "resources/subscribe", "test://x"))).status).toBe(200);
    // b read the record before x was subscribed: its own subscription must not lose x from the record.
    expect((await b.post(session, subscription(3, "resources/subscribe", "test://y"))).status).toBe(200);
    await announce({ uri: "test://x" });
    expect(await events.next()).toEqual({ jsonrpc: "2.0", method: RESOURCE_UPDATED, params: { uri: "test://x" } });
    expect((await a.post(session, subscription(4, "resources/unsubscribe", "test://y"))).status).toBe(200);
    await announce({ uri: "test://y" });
    await announce({ kind: "tools" });
    // y, unsubscribed through a, is not heard; x was heard once.
    expect(await events.next()).toEqual({ jsonrpc: "2.0", method: TOOLS_CHANGED });
  });

  it("in a fleet, the instance holding a session's stream tells it nothing until its client sent notifications/initialized, through any instance", async () => {
    const { a, b, announce } = await fleet();
    // One session used (a ping) before its stream opened elsewhere, one whose stream opened right after initialize.
    const pinged = await a.open();
    expect((await a.post(pinged, { jsonrpc: "2.0", id: 2, method: "ping" })).status).toBe(200);
    const streams = [await b.listen(pinged)];
    const fresh = await a.open();
    streams.push(await b.listen(fresh));
    await announce({ kind: "prompts" });
    for (const session of [pinged, fresh])
      expect((await a.post(session, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    await announce({ kind: "tools" });
    for (const events of streams) expect(await events.next()).toEqual({ jsonrpc: "2.0", method: TOOLS_CHANGED });
  });
});

describe("a session's log level in a fleet", () => {
  const setLevel = (id: number, level: string) => ({
    jsonrpc: "2.0",
    id,
    method: "logging/setLevel",
    params: { level },
  });
  const chatty = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "chatty", arguments: {} },
  });

  it("a level set through one instance filters ctx.log on another that already served the session", async () => {
    const { a, b } = await fleet();
    const session = await a.open();
    await a.post(session, { jsonrpc: "2.0", method: "notifications/initialized" });
    // b serves the session before its level is set, so it holds the session's record from before.
    expect(await logged(await b.post(session, chatty(2)))).toEqual(["info", "error"]);
    expect((await a.post(session, setLevel(3, "error"))).status).toBe(200);
    expect(await logged(await b.post(session, chatty(4)))).toEqual(["error"]);
    expect(await logged(await a.post(session, chatty(5)))).toEqual(["error"]);
  });

  it("and the other way: a level set through the instance that did not open the session holds on the one that did", async () => {
    const { a, b } = await fleet();
    const session = await a.open();
    await a.post(session, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(await logged(await a.post(session, chatty(2)))).toEqual(["info", "error"]);
    expect((await b.post(session, setLevel(3, "error"))).status).toBe(200);
    expect(await logged(await a.post(session, chatty(4)))).toEqual(["error"]);
    // Lowered again through a: b hears of it too.
    expect((await a.post(session, setLevel(5, "debug"))).status).toBe(200);
    expect(await logged(await b.post(session, chatty(6)))).toEqual(["info", "error"]);
  });

  it("a level set in a batch (2025-03-26) filters what the session's later requests log", async () => {
    const server = createMcpServer([batching.MCP_RELEASE], { info: INFO });
    server.tool({ name: "chatty" }, chattyTool);
    const http = overHttp(server.eras());
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const post = (extra: object, body: unknown) =>
      http.fetch(URL_, { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) });
    const init = await post(
      {},
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { ...INIT, protocolVersion: "2025-03-26" } },
    );
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-03-26" };
    expect(
      (await post(session, [{ jsonrpc: "2.0", method: "notifications/initialized" }, setLevel(2, "error")])).status,
    ).toBe(200);
    expect(await logged(await post(session, chatty(3)))).toEqual(["error"]);
  });
});

/** A tool that logs once at "info" and once at "error". */
const chattyTool = (_args: unknown, ctx: { log(level: "info" | "error", data: unknown): void }) => {
  ctx.log("info", "i");
  ctx.log("error", "e");
  return { content: [] };
};

/** The levels of the log messages a POST's reply carried (on its SSE stream, or none in a JSON reply). */
async function logged(response: Response): Promise<string[]> {
  expect(response.status).toBe(200);
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return [];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)) as { method?: string; params?: { level?: string } })
    .filter((message) => message.method === "notifications/message")
    .map((message) => message.params!.level!);
}

/**
 * Two instances, each with its own server (as processes would be), sharing the stores and a bus on which a change
 * is announced to every instance, as examples/redis-fleet.ts does. Each instance opens sessions, POSTs in one and
 * opens one's GET stream. Each server has a tool, chatty, that logs at "info" and at "error".
 */
async function fleet() {
  const bus = createMemoryMessageBus();
  const shared = { sessionStore: createMemorySessionStore(), eventStore: createMemoryEventStore(), messageBus: bus };
  const servers = [changing(), changing()];
  for (const server of servers) server.tool({ name: "chatty" }, chattyTool);
  for (const server of servers)
    await bus.subscribe("test/changed", (change) => {
      if (typeof change["uri"] === "string") server.resourceUpdated(change["uri"]);
      else server.listChanged(change["kind"] as ListKind);
    });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const instance = (server: ReturnType<typeof changing>) => {
    const http = overHttp(server.eras(), shared);
    const post = (session: object, body: object) =>
      http.fetch(URL_, { method: "POST", headers: { ...headers, ...session }, body: JSON.stringify(body) });
    return {
      post,
      /** A new session's headers. */
      async open() {
        const init = await post({}, { jsonrpc: "2.0", id: 1, method: "initialize", params: INIT });
        return { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
      },
      /** The session's GET stream, opened here. */
      async listen(session: object) {
        const stream = await http.fetch(URL_, {
          method: "GET",
          headers: { ...headers, ...session, accept: "text/event-stream" },
        });
        expect(stream.status).toBe(200);
        return sseMessages(stream);
      },
    };
  };
  const [a, b] = servers.map(instance);
  return {
    a: a!,
    b: b!,
    announce: (change: { kind: ListKind } | { uri: string }) => bus.publish("test/changed", change),
  };
}

/** The JSON-RPC messages of an SSE response, in order. */
function sseMessages(response: Response) {
  const messages = inbox<unknown>();
  const reader = response.body!.getReader();
  closing.push(() => reader.cancel());
  void (async () => {
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      text += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = text.indexOf("\n\n")) >= 0) {
        const data = text
          .slice(0, end)
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart())
          .join("\n");
        text = text.slice(end + 2);
        if (data !== "") messages.push(JSON.parse(data));
      }
    }
  })();
  return messages;
}

/** A Standard Schema v1 object as a library writes one (zod's shape): its own validate, its JSON Schema by Standard JSON Schema. */
function library<I, O>(
  validate: (value: unknown) => StandardOutcome<O> | Promise<StandardOutcome<O>>,
  listed: { input: object; output: object } | null,
) {
  return {
    "~standard": {
      version: 1 as const,
      vendor: "lib",
      validate,
      types: undefined as { readonly input: I; readonly output: O } | undefined,
      ...(listed === null ? {} : { jsonSchema: { input: () => listed.input, output: () => listed.output } }),
    },
  };
}
type StandardOutcome<O> = { value: O; issues?: undefined } | { issues: { message: string; path?: PropertyKey[] }[] };

const TRIP_LISTED = { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } };
/** Arguments with a default: what validate gives back has days. */
const trip = (wait: boolean) =>
  library<{ city: string; days?: number }, { city: string; days: number }>(
    (value) => {
      const v = value as { city?: unknown; days?: number };
      const outcome: StandardOutcome<{ city: string; days: number }> =
        typeof v.city === "string"
          ? { value: { city: v.city, days: v.days ?? 1 } }
          : { issues: [{ message: "a city name", path: ["city"] }] };
      return wait ? new Promise((resolve) => setTimeout(() => resolve(outcome), 1)) : outcome;
    },
    { input: TRIP_LISTED, output: { ...TRIP_LISTED, required: ["city", "days"] } },
  );
/** A result whose validate rounds the temperature, and refuses a negative one (asynchronously). */
const reading = library<{ tempC: number }, { tempC: number }>(
  async (value) => {
    const tempC = (value as { tempC: number }).tempC;
    return tempC < 0 ? { issues: [{ message: "too cold", path: ["tempC"] }] } : { value: { tempC: Math.round(tempC) } };
  },
  { input: { type: "object" }, output: { type: "object", properties: { tempC: { type: "integer" } } } },
);

/** A server over 2026-07-28 and 2025-11-25 and the calls to make of it, in either era. */
function served(
  declare: (server: ReturnType<typeof createMcpServer<[typeof modern.MCP_RELEASE, typeof legacy.MCP_RELEASE]>>) => void,
) {
  const server = createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], { info: { name: "t", version: "1" } });
  declare(server);
  const eras = server.eras();
  const session = eras.sessions!.open("s");
  let id = 0;
  const answer = (response: unknown) =>
    response as { result?: Record<string, unknown>; error?: { code: number; message: string } };
  return {
    modern: async (method: string, params: object = {}) =>
      answer(
        await eras.stateless!.handle(
          wire({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: META } }),
          base(),
          undefined,
        ),
      ),
    legacy: async (method: string, params: object = {}) =>
      answer(
        await eras.sessions!.handle(
          session,
          wire({ jsonrpc: "2.0", id: ++id, method, params }),
          base(),
          undefined,
          () => undefined,
        ),
      ),
  };
}

describe("tools declared with Standard Schema objects", () => {
  it("checks arguments with ~standard.validate before the handler, refusing them as the release says, the handler getting what validate gave back", async () => {
    const got: unknown[] = [];
    const s = served((server) =>
      server.tool({ name: "trip", inputSchema: trip(false) }, (args) => {
        got.push(args);
        return { content: [{ type: "text", text: `${args.city} for ${args.days}` }] };
      }),
    );
    const ok = await s.modern("tools/call", { name: "trip", arguments: { city: "Oslo" } });
    expect(ok.result).toMatchObject({ content: [{ type: "text", text: "Oslo for 1" }] });
    expect(got).toEqual([{ city: "Oslo", days: 1 }]);
    const refused = await s.modern("tools/call", { name: "trip", arguments: { city: 4 } });
    expect(refused.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "Invalid arguments for tool trip: /city: a city name" }],
    });
    await s.legacy("initialize", INIT);
    expect((await s.legacy("tools/call", { name: "trip", arguments: {} })).result).toMatchObject({ isError: true });
    expect(got).toHaveLength(1);

    const before = createMcpServer([older.MCP_RELEASE], { info: { name: "t", version: "1" } });
    before.tool({ name: "trip", inputSchema: trip(false) }, () => ({ content: [] }));
    const era = before.eras().sessions!;
    const session = era.open(undefined);
    const call = (id: number, method: string, params: object) =>
      era.handle(session, wire({ jsonrpc: "2.0", id, method, params }), base(), undefined, () => undefined);
    await call(1, "initialize", { ...INIT, protocolVersion: "2025-06-18" });
    expect(await call(2, "tools/call", { name: "trip", arguments: { city: null } })).toMatchObject({
      error: { code: -32602, message: "Invalid arguments for tool trip: /city: a city name" },
    });
  });

  it("waits for a validate that answers a promise, for arguments and for the result", async () => {
    const s = served((server) =>
      server.tool({ name: "trip", inputSchema: trip(true), outputSchema: reading }, ({ days }) => ({
        content: [],
        structuredContent: { tempC: days - 1.6 },
      })),
    );
    expect((await s.modern("tools/call", { name: "trip", arguments: { days: 3 } })).result).toMatchObject({
      isError: true,
    });
    const ok = await s.modern("tools/call", { name: "trip", arguments: { city: "Oslo", days: 20 } });
    expect(ok.result).toMatchObject({ structuredContent: { tempC: 18 } });
  });

  it("checks structuredContent with the output schema's validate before it leaves, sending what validate gave back", async () => {
    const s = served((server) =>
      server.tool({ name: "weather", outputSchema: reading }, (args) => ({
        content: [],
        structuredContent: { tempC: Number(args["tempC"]) },
      })),
    );
    expect((await s.modern("tools/call", { name: "weather", arguments: { tempC: 4.4 } })).result).toMatchObject({
      structuredContent: { tempC: 4 },
    });
    expect((await s.modern("tools/call", { name: "weather", arguments: { tempC: -3 } })).error).toEqual({
      code: -32603,
      message: "Internal error",
    });
  });

  it("lists the JSON Schema each object gives (arguments as input, the result as output); one that gives none is refused when declared", async () => {
    const s = served((server) =>
      server
        .tool({ name: "trip", description: "A trip", inputSchema: trip(false), outputSchema: reading }, () => ({
          content: [],
          structuredContent: { tempC: 1 },
        }))
        .tool({ name: "implementation", inputSchema: standardSchema("Implementation") }, ({ name }) => ({
          content: [{ type: "text", text: name }],
        })),
    );
    const listed = (await s.modern("tools/list")).result?.["tools"];
    expect(listed).toEqual([
      {
        name: "trip",
        description: "A trip",
        inputSchema: TRIP_LISTED,
        outputSchema: { type: "object", properties: { tempC: { type: "integer" } } },
      },
      {
        name: "implementation",
        inputSchema: standardSchema("Implementation")["~standard"].jsonSchema.input({ target: "draft-2020-12" }),
      },
    ]);
    // A release's generated validator checks the arguments.
    const refused = await s.modern("tools/call", { name: "implementation", arguments: { name: "n" } });
    expect(JSON.stringify(refused.result)).toContain("/version: expected string, got missing");
    expect(
      (await s.modern("tools/call", { name: "implementation", arguments: { name: "n", version: "1" } })).result,
    ).toMatchObject({
      content: [{ text: "n" }],
    });

    const server = createMcpServer([modern.MCP_RELEASE], { info: { name: "t", version: "1" } });
    expect(() =>
      server.tool({ name: "bare", inputSchema: library(() => ({ value: 1 }), null) }, () => ({ content: [] })),
    ).toThrow(/^tool "bare" inputSchema: a Standard Schema without ~standard\.jsonSchema/);
    expect(server.remove("tools", "bare")).toBe(false);
  });
});

// A server's module as `generate` writes it (servers/<name>.ts from a snapshot), beside the tests' runtime.
const SNAPSHOT_DIR = mkdtempSync(join(PACKAGE_ROOT, "test", ".tmp", "mcp-server-snapshot-"));
afterAll(() => rmSync(SNAPSHOT_DIR, { recursive: true, force: true }));
const FORECAST_IN = {
  type: "object",
  properties: {
    city: { type: "string", description: "The city's name" },
    days: { type: "integer", minimum: 1, description: "How many days ahead" },
  },
  required: ["city"],
};
const FORECAST_OUT = { type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] };
const FORECAST = {
  name: "get-forecast",
  title: "Forecast",
  description: "The forecast for a city",
  annotations: { readOnlyHint: true },
  inputSchema: FORECAST_IN,
  outputSchema: FORECAST_OUT,
  _meta: { "com.example/owner": "weather-team" },
};
const weatherSnapshot = snapshotOf("weather.json", "weather", "2026-07-28", [
  FORECAST,
  { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
]);
mkdirSync(join(SNAPSHOT_DIR, "servers"));
symlinkSync(join(GENERATED_DIR, "runtime"), join(SNAPSHOT_DIR, "runtime"));
writeFileSync(
  join(SNAPSHOT_DIR, "servers", "weather.ts"),
  emitServerTools(toolSet("weather.json", weatherSnapshot), []).content,
);
interface WeatherModule {
  toolDeclaration(name: "get-forecast"): {
    readonly name: "get-forecast";
    readonly inputSchema: StandardSchema<{ city: string; days?: number }>;
    readonly outputSchema: StandardSchema<{ temperature: number }>;
  };
  toolDeclaration(name: "echo"): { readonly name: "echo"; readonly inputSchema: StandardSchema<{ text?: string }> };
}
const weather = (await import(join(SNAPSHOT_DIR, "servers", "weather.ts"))) as WeatherModule;

describe("a snapshot's tools served (servers/<name>.ts toolDeclaration)", () => {
  it("lists the tool as its server published it (title, description, annotations, both schemas), not its _meta", async () => {
    const s = served((server) =>
      server
        .tool(weather.toolDeclaration("get-forecast"), () => ({ content: [], structuredContent: { temperature: 4 } }))
        .tool(weather.toolDeclaration("echo"), ({ text }) => ({ content: [{ type: "text", text: text ?? "" }] })),
    );
    await s.legacy("initialize", INIT);
    const { _meta, ...published } = FORECAST;
    void _meta;
    const echo = { name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } };
    expect((await s.modern("tools/list")).result?.["tools"]).toEqual([published, echo]);
    expect((await s.legacy("tools/list")).result?.["tools"]).toEqual([published, echo]);
  });

  it("checks the arguments and the result with the module's validators", async () => {
    const got: unknown[] = [];
    const s = served((server) =>
      server.tool(weather.toolDeclaration("get-forecast"), (args) => {
        got.push(args);
        return { content: [], structuredContent: { temperature: (args.days === 2 ? "warm" : 4) as number } };
      }),
    );
    expect((await s.modern("tools/call", { name: "get-forecast", arguments: { city: "Oslo" } })).result).toMatchObject({
      structuredContent: { temperature: 4 },
    });
    const refused = await s.modern("tools/call", { name: "get-forecast", arguments: { city: "Oslo", days: 0 } });
    expect(refused.result).toMatchObject({ isError: true });
    expect(JSON.stringify(refused.result)).toContain("/days: expected");
    expect(got).toEqual([{ city: "Oslo" }]);
    const wrong = await s.modern("tools/call", { name: "get-forecast", arguments: { city: "Oslo", days: 2 } });
    expect(wrong.error).toEqual({ code: -32603, message: "Internal error" });
  });
});
