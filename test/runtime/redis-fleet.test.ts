// Three example servers sharing one real redis-server, behind a round-robin proxy with no affinity: each request
// may land on any instance. 2025 sessions of the official SDK v1 and v2 clients and of ours, a stream resumed on
// another instance after its own went away, a 2026 subscriptions/listen stream hearing a change made through
// another instance and a 2025 session's GET stream hearing one too, a log level set through one instance holding on
// another, idle expiry in Redis, and Redis stopped and restarted under load.
import { createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createHttpHandler, createMcpServer, httpTransport, toNodeListener } from "../../generated/index.js";
import * as legacy from "../../generated/2025-11-25/index.js";
import * as modern from "../../generated/2026-07-28/index.js";
import { createRedisStores } from "../../generated/runtime/redis/redis-stores.js";
import { run } from "../../examples/client.ts";
import { startServer, type ExampleServer } from "../../examples/server.ts";
import { redisMissing, startRedis, until, type RedisServer } from "../support/redis-server.ts";

const missing = redisMissing();

const SECRET = "a fleet's requestState key, 32+ characters long";

/** A round-robin HTTP proxy with no affinity; `cut(i)` makes instance i unreachable (its connections dropped). */
interface Proxy {
  readonly url: string;
  /** Requests each instance was sent. */
  readonly served: number[];
  /** Each request as `<instance> <method>`, and ` resume` when it carried Last-Event-ID. */
  readonly log: string[];
  cut(index: number): void;
  close(): Promise<void>;
}

async function roundRobin(targets: readonly string[]): Promise<Proxy> {
  const live = targets.map(() => true);
  const served = targets.map(() => 0);
  const log: string[] = [];
  const open = targets.map(() => new Set<Socket>());
  let next = 0;
  const pick = (): number => {
    for (let tried = 0; tried < targets.length; tried++) {
      const index = next++ % targets.length;
      if (live[index]) return index;
    }
    return -1;
  };
  const server: Server = createServer((incoming, outgoing) => {
    const index = pick();
    if (index < 0) return void outgoing.writeHead(502).end();
    served[index]!++;
    log.push(`${index} ${incoming.method}${incoming.headers["last-event-id"] === undefined ? "" : " resume"}`);
    const target = new URL(targets[index]!);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (reply: IncomingMessage) => {
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        // A quiet stream's head goes on at once, as it came (a GET stream says nothing until a list changes).
        outgoing.flushHeaders();
        reply.pipe(outgoing);
        reply.once("aborted", () => outgoing.destroy());
        reply.once("error", () => outgoing.destroy());
      },
    );
    upstream.once("socket", (socket) => {
      open[index]!.add(socket);
      socket.once("close", () => open[index]!.delete(socket));
    });
    upstream.once("error", () => (outgoing.headersSent ? outgoing.destroy() : outgoing.writeHead(502).end()));
    outgoing.once("close", () => upstream.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    served,
    log,
    cut(index) {
      live[index] = false;
      for (const socket of open[index]!) socket.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe.skipIf(missing)("three instances on one Redis behind a round-robin proxy", () => {
  let redis: RedisServer;
  let instances: ExampleServer[];
  let proxy: Proxy;
  let inspect: Redis;
  const errors: unknown[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    inspect = new Redis(redis.url);
    inspect.on("error", () => undefined);
    instances = await Promise.all(
      [0, 1, 2].map(() =>
        startServer({ redis: redis.url, requestStateSecret: SECRET, onError: (error) => errors.push(error) }),
      ),
    );
    proxy = await roundRobin(instances.map((instance) => instance.url));
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all((instances ?? []).map((instance) => instance.close()));
    inspect?.disconnect();
    await redis?.stop();
  });

  const spread = async <T>(work: () => Promise<T>): Promise<T> => {
    const before = [...proxy.served];
    const result = await work();
    // Every instance took part: no request was routed back to where its session began.
    expect(proxy.served.every((count, index) => count > before[index]!)).toBe(true);
    return result;
  };

  it("an SDK v1 client's 2025 session works across instances, elicitation answered through another instance included", async () => {
    await spread(async () => {
      const client = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { response: "from v1" } }));
      const transport = new TransportV1(new URL(proxy.url));
      await client.connect(transport);
      try {
        expect(client.getServerVersion()?.name).toBe("mcp-bindgen-example-server");
        await client.setLoggingLevel("info");
        for (let round = 0; round < 3; round++) {
          expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("test_simple_text");
          expect(await client.callTool({ name: "test_simple_text", arguments: {} })).toMatchObject({
            content: [{ type: "text", text: "This is a simple text response for testing." }],
          });
          expect(await client.callTool({ name: "test_elicitation", arguments: { message: "Say" } })).toMatchObject({
            content: [{ type: "text", text: 'User response: action=accept, content={"response":"from v1"}' }],
          });
        }
      } finally {
        await transport.terminateSession();
        await client.close();
      }
    });
  });

  it("an SDK v2 client's 2025 session works across instances", async () => {
    await spread(async () => {
      const client = new ClientV2({ name: "sdk-v2-client", version: "2.0.0" });
      const transport = new TransportV2(new URL(proxy.url));
      await client.connect(transport);
      try {
        for (let round = 0; round < 3; round++) {
          expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("test_image_content");
          expect(await client.callTool({ name: "echo", arguments: { text: `round ${round}` } })).toMatchObject({
            content: [{ type: "text", text: `round ${round}` }],
          });
        }
      } finally {
        await client.close();
      }
    });
  });

  it("our client's 2025 session runs the example's whole scenario across instances, every call answered", async () => {
    const lines: string[] = [];
    await spread(() => run({ url: proxy.url }, { protocolVersion: "2025-11-25", log: (line) => lines.push(line) }));
    expect(lines[0]).toBe("connected: 2025-11-25");
    // Only the client's own refusals of made-up arguments, before anything is sent, may fail.
    expect(lines.filter((line) => line.includes("error:") && !line.includes("do not fit its inputSchema"))).toEqual([]);
    expect(lines.some((line) => line.startsWith("test_elicitation: ") && line.includes("action=accept"))).toBe(true);
    expect(lines).toContain(
      'test_simple_text: {"content":[{"type":"text","text":"This is a simple text response for testing."}]}',
    );
    expect(
      lines.some((line) => line.startsWith("test_sampling: ") && line.includes("An answer from the example client.")),
    ).toBe(true);
  });

  it("a subscriptions/listen stream on one instance hears a tool list change made through another", async () => {
    const meta = { [modern.MetaKey.protocolVersion]: "2026-07-28", [modern.MetaKey.clientCapabilities]: {} };
    const headers = (method: string, name?: string) => ({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    });
    const listening = new AbortController();
    const listen = await fetch(proxy.url, {
      method: "POST",
      headers: headers("subscriptions/listen"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true }, _meta: meta },
      }),
      signal: listening.signal,
    });
    const reader = listen.body!.getReader();
    // A notification that never comes fails the test instead of hanging it.
    const giveUp = setTimeout(() => listening.abort(), 20_000);
    let heard = "";
    const read = async (what: string) => {
      while (!heard.includes(what)) heard += new TextDecoder().decode((await reader.read()).value);
    };
    await read("notifications/subscriptions/acknowledged");
    const holders = instances.filter((instance) => instance.handler.pending > 0);
    expect(holders).toHaveLength(1);
    // The next request goes to another instance (round robin): the change is made there.
    const trigger = await fetch(proxy.url, {
      method: "POST",
      headers: headers("tools/call", "test_trigger_tool_change"),
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "test_trigger_tool_change", arguments: {}, _meta: meta },
      }),
    });
    expect(await trigger.json()).toMatchObject({ result: { content: [{ text: "Mutation triggered" }] } });
    expect(holders[0]!.handler.pending).toBeGreaterThan(0);
    try {
      await read("notifications/tools/list_changed");
    } finally {
      clearTimeout(giveUp);
      listening.abort();
    }
  });

  it("an SDK v1 client's 2025 session hears, on its GET stream, a tool list change made through another instance", async () => {
    let opened: () => void = () => undefined;
    const listening = new Promise<void>((resolve) => (opened = resolve));
    const transport = new TransportV1(new URL(proxy.url), {
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (init?.method === "GET" && response.ok) opened();
        return response;
      },
    });
    const client = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" });
    let heard: () => void = () => undefined;
    const changed = new Promise<void>((resolve) => (heard = resolve));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => heard());
    await client.connect(transport);
    try {
      await listening;
      const before = proxy.log.length;
      // The example's trigger is a 2026-07-28 tool: the change it announces reaches both eras' clients.
      const meta = { [modern.MetaKey.protocolVersion]: "2026-07-28", [modern.MetaKey.clientCapabilities]: {} };
      const trigger = await fetch(proxy.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "test_trigger_tool_change",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "test_trigger_tool_change", arguments: {}, _meta: meta },
        }),
      });
      expect(await trigger.json()).toMatchObject({ result: { content: [{ text: "Mutation triggered" }] } });
      const streams = proxy.log.filter((line) => line.endsWith(" GET"));
      // The round robin sent the call to another instance than the one holding the stream.
      expect(proxy.log[before]!.split(" ")[0]).not.toBe(streams[streams.length - 1]!.split(" ")[0]);
      await changed;
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("a client whose stream's instance goes away resumes it on another with Last-Event-ID and gets its final result", async () => {
    let holder = -1;
    const idle = instances.map((instance) => instance.handler.pending);
    const session = await connect(httpTransport(proxy.url, { reconnectDelayMs: 100, maxReconnects: 5 }), {
      releases: [
        legacy.clientRelease({
          capabilities: { elicitation: {} },
          dispatcher: legacy.createClientDispatcher({
            "elicitation/create": () => {
              // The instance running the call (its handler waits for this answer) becomes unreachable: the
              // call's stream breaks, and this answer and the resumption go to the other two.
              holder = instances.findIndex((instance, index) => instance.handler.pending > idle[index]!);
              proxy.cut(holder);
              return { action: "accept", content: { response: "after the cut" } };
            },
          }),
        }),
      ],
      clientInfo: { name: "resuming-client", version: "1.0.0" },
      protocolVersion: "2025-11-25",
    });
    try {
      const call = session.request("tools/call", { name: "test_elicitation", arguments: { message: "Say" } });
      // The handler got the answer over the bus and finished; then its instance shuts down for good.
      await until(() => holder >= 0 && instances[holder]!.handler.pending === 0);
      await instances[holder]!.close();
      expect(await call).toMatchObject({
        content: [{ type: "text", text: 'User response: action=accept, content={"response":"after the cut"}' }],
      });
      const resumed = proxy.log.filter((line) => line.endsWith("GET resume"));
      expect(resumed.length).toBeGreaterThan(0);
      expect(resumed.every((line) => !line.startsWith(`${holder} `))).toBe(true);
    } finally {
      await session.close();
    }
  });
});

describe.skipIf(missing)("sessions in Redis: expiry and a Redis restart", () => {
  let redis: RedisServer;
  let inspect: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    inspect = new Redis(redis.url, { retryStrategy: () => 50 });
    inspect.on("error", () => undefined);
  });
  afterAll(async () => {
    inspect?.disconnect();
    await redis?.stop();
  });

  const sessionEra = () =>
    legacy.sessionEra({
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: "fleet", version: "1" },
      }),
      "tools/call": async (params, ctx) => {
        ctx.progress?.({ progress: 1 });
        return { content: [{ type: "text", text: params.name }] };
      },
      "notifications/initialized": () => undefined,
    });
  const BASE = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const initialize = {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
  };

  it("a session nobody uses expires from Redis with its streams' events, and its id then gets 404", async () => {
    const stores = createRedisStores(redis.url, { prefix: "expiry:", eventTtlMs: 300 });
    await stores.ready();
    const handler = createHttpHandler({
      sessions: sessionEra(),
      sessionStore: stores.sessionStore,
      eventStore: stores.eventStore,
      messageBus: stores.messageBus,
      sessionIdleMs: 300,
    });
    try {
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        handler.fetch(
          new Request("http://127.0.0.1/mcp", {
            method: "POST",
            headers: { ...BASE, host: "127.0.0.1", ...headers },
            body: JSON.stringify(body),
          }),
        );
      const id = (await post(initialize)).headers.get("mcp-session-id")!;
      const inSession = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
      expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, inSession)).status).toBe(202);
      const streamed = await post(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "t", arguments: {}, _meta: { progressToken: 1 } },
        },
        inSession,
      );
      expect(await streamed.text()).toContain("notifications/progress");
      const keys = await inspect.keys(`expiry:*${id}*`);
      expect(keys.length).toBeGreaterThanOrEqual(2); // the record and the call's stream
      await until(async () => (await inspect.keys(`expiry:*${id}*`)).length === 0);
      // The instance's own idle clock started at the call's end, a little after the record's last write.
      await until(() => handler.sessions === 0);
      expect((await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, inSession)).status).toBe(404);
    } finally {
      handler.close();
      await stores.close();
    }
  });

  const serveBoth = () =>
    createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], { info: { name: "s", version: "1" } });
  type Stores = ReturnType<typeof createRedisStores>;
  /** Two instances in-process on this Redis, each with its own connections, serving what `declare` declares. */
  const twoInstances = async (
    prefix: string,
    declare: (server: ReturnType<typeof serveBoth>, stores: Stores) => Promise<void> | void,
  ) => {
    const instances = await Promise.all(
      [0, 1].map(async () => {
        const stores = createRedisStores(redis.url, { prefix });
        await stores.ready();
        const server = serveBoth();
        await declare(server, stores);
        const handler = createHttpHandler({
          ...server.eras(),
          sessionStore: stores.sessionStore,
          eventStore: stores.eventStore,
          messageBus: stores.messageBus,
        });
        const fetch = (method: string, headers: Record<string, string>, body?: unknown) =>
          handler.fetch(
            new Request("http://127.0.0.1/mcp", {
              method,
              headers: { ...BASE, host: "127.0.0.1", ...headers },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            }),
          );
        return { stores, handler, fetch };
      }),
    );
    const close = async () => {
      for (const instance of instances) instance.handler.close();
      await Promise.all(instances.map((instance) => instance.stores.close()));
    };
    return { a: instances[0]!, b: instances[1]!, close };
  };

  it("the instance holding a session's stream tells it of a resource it subscribed to, and initialized, through another", async () => {
    // A resource update announced to both instances on the bus.
    const { a, b, close } = await twoInstances("subscriptions:", async (server, stores) => {
      server.resource({ uri: "test://x", name: "x" }, (uri) => ({ contents: [{ uri, text: "X" }] }));
      await stores.messageBus.subscribe("test/updated", (change) => server.resourceUpdated(change["uri"] as string));
    });
    const stream = new AbortController();
    try {
      const id = (await a.fetch("POST", {}, initialize)).headers.get("mcp-session-id")!;
      const inSession = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
      const get = await b.fetch("GET", { ...inSession, accept: "text/event-stream" });
      expect(get.status).toBe(200);
      const reader = get.body!.getReader();
      stream.signal.addEventListener("abort", () => void reader.cancel());
      expect((await a.fetch("POST", inSession, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(
        202,
      );
      const subscribe = { jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: "test://x" } };
      expect((await a.fetch("POST", inSession, subscribe)).status).toBe(200);
      await a.stores.messageBus.publish("test/updated", { uri: "test://x" });
      let text = "";
      while (!text.includes("data:")) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toContain('"method":"notifications/resources/updated","params":{"uri":"test://x"}');
    } finally {
      stream.abort();
      await close();
    }
  });

  it("a session's log level set through one instance filters what a tool logs through another, both ways", async () => {
    // A tool that logs at "info" and at "error".
    const instances = await twoInstances("levels:", (server) => {
      server.tool({ name: "chatty" }, (_args, ctx) => {
        ctx.log("info", "i");
        ctx.log("error", "e");
        return { content: [] };
      });
    });
    const { a, b } = instances;
    try {
      const id = (await a.fetch("POST", {}, initialize)).headers.get("mcp-session-id")!;
      const inSession = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
      expect((await a.fetch("POST", inSession, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(
        202,
      );
      const setLevel = (level: string) => ({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level } });
      /** The levels a call of chatty through `via` logged, joined. */
      const logged = async (via: typeof a) => {
        const reply = await via.fetch("POST", inSession, {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "chatty", arguments: {} },
        });
        return (await reply.text())
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => JSON.parse(line.slice(5)) as { method?: string; params?: { level?: string } })
          .filter((message) => message.method === "notifications/message")
          .map((message) => message.params?.level)
          .join();
      };
      expect(await logged(b)).toBe("info,error");
      expect((await a.fetch("POST", inSession, setLevel("error"))).status).toBe(200);
      // b holds the session already: the level reaches it on the bus (one message, no store read).
      await until(async () => (await logged(b)) === "error");
      expect((await b.fetch("POST", inSession, setLevel("debug"))).status).toBe(200);
      await until(async () => (await logged(a)) === "info,error");
      expect(await logged(b)).toBe("info,error");
    } finally {
      await instances.close();
    }
  });

  it("Redis stopped and restarted under load: every request is answered once, with its result or 503; acknowledged sessions survive; service resumes without a restart", async () => {
    const fleet = await Promise.all(
      [0, 1, 2].map(async () => {
        const stores = createRedisStores(redis.url, { prefix: "load:" });
        await stores.ready();
        const handler = createHttpHandler({
          sessions: sessionEra(),
          sessionStore: stores.sessionStore,
          eventStore: stores.eventStore,
          messageBus: stores.messageBus,
        });
        const server = createServer(toNodeListener(handler));
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        return { stores, handler, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
      }),
    );
    const proxy = await roundRobin(fleet.map((instance) => instance.url));
    const statuses = new Map<number, number>();
    const wrong: string[] = [];
    const acknowledged: string[] = [];
    let phase: "before" | "down" | "after" = "before";
    const send = async (body: unknown, headers: Record<string, string> = {}): Promise<Response> => {
      const reply = await fetch(proxy.url, {
        method: "POST",
        headers: { ...BASE, accept: "application/json", ...headers },
        body: JSON.stringify(body),
      });
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      return reply;
    };
    /** One client: sessions opened, used and some ended, over and over, until told to stop. */
    const worker = async (name: string, stop: () => boolean) => {
      for (let round = 0; !stop(); round++) {
        const opened = await send(initialize);
        if (opened.status !== 200) continue;
        const id = opened.headers.get("mcp-session-id")!;
        const inSession = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
        const ready = await send({ jsonrpc: "2.0", method: "notifications/initialized" }, inSession);
        if (ready.status !== 202) continue;
        if (phase === "before") acknowledged.push(id);
        for (let call = 0; call < 3 && !stop(); call++) {
          const reply = await send(
            {
              jsonrpc: "2.0",
              id: call,
              method: "tools/call",
              params: { name: `${name}-${round}-${call}`, arguments: {} },
            },
            inSession,
          );
          if (reply.status !== 200) continue;
          const body = (await reply.json()) as { id?: number; result?: { content: { text: string }[] } };
          if (body.id !== call || body.result?.content[0]?.text !== `${name}-${round}-${call}`)
            wrong.push(JSON.stringify(body));
        }
      }
    };
    try {
      let stopping = false;
      const load = Promise.all(["a", "b", "c", "d"].map((name) => worker(name, () => stopping)));
      await until(() => acknowledged.length >= 8);
      // Redis goes down (saving what it holds, as a Redis with persistence would) and comes back.
      await redis.stop({ save: true });
      phase = "down";
      await until(() => (statuses.get(503) ?? 0) >= 10);
      await redis.start();
      await until(async () => (await inspect.ping().catch(() => "")) === "PONG");
      phase = "after";
      const beforeRecovery = statuses.get(200) ?? 0;
      await until(() => (statuses.get(200) ?? 0) > beforeRecovery + 20);
      stopping = true;
      await load;
      expect(wrong).toEqual([]);
      expect([...statuses.keys()].sort()).toEqual([200, 202, 503]);
      // Every session acknowledged before the outage is still served, by every instance.
      for (const id of acknowledged) {
        const inSession = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
        for (let instance = 0; instance < 3; instance++) {
          const reply = await send(
            { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "again", arguments: {} } },
            inSession,
          );
          expect(reply.status).toBe(200);
        }
      }
    } finally {
      await proxy.close();
      for (const instance of fleet) {
        instance.handler.close();
        instance.server.closeAllConnections();
        instance.server.close();
        await instance.stores.close();
      }
    }
  });
});
