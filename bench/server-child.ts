/**
 * One server of the transport bench, in its own process so its CPU time is its own: `ours` (the shipped
 * createHttpHandler on node:http, both eras), `redis <url>` (the same with the Redis stores of
 * generated/runtime/redis: bench/redis.ts), `high` (the same tools on createMcpServer), `sdk` (SDK v2's createMcpHandler behind node:http, the same two
 * tools) or `bare` (node:http answering the same JSON without MCP: the limit). Reports its port, answers
 * "cpu" with its process.cpuUsage(), and "sessions" with the heap bytes per idle 2025 session (run with
 * --expose-gc).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { createHttpHandler, createMcpServer, LEGACY_VERSIONS, toNodeListener } from "../generated/index.js";
import * as legacy from "../generated/2025-11-25/index.js";
import * as modern from "../generated/2026-07-28/index.js";
import { createRedisStores, type RedisStores } from "../generated/runtime/redis/redis-stores.js";
import { readBody, serveFetch } from "../test/support/serve-fetch.ts";

export const TOOL_TEXT = "hello";
const TOOLS = [
  { name: "echo", description: "Answers with a fixed text", inputSchema: { type: "object" as const, properties: {} } },
  {
    name: "now",
    description: "Answers with another fixed text",
    inputSchema: { type: "object" as const, properties: {} },
  },
];
const SESSIONS = 2000;

function oursHandler(stores?: RedisStores) {
  const content = [{ type: "text" as const, text: TOOL_TEXT }];
  return createHttpHandler({
    ...(stores === undefined
      ? {}
      : { sessionStore: stores.sessionStore, eventStore: stores.eventStore, messageBus: stores.messageBus }),
    stateless: modern.statelessEra({
      "tools/list": () => ({ tools: TOOLS, ttlMs: 1000, cacheScope: "public" }),
      "tools/call": () => ({ content }),
    }),
    sessions: legacy.sessionEra({
      initialize: () => ({
        protocolVersion: legacy.PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: "bench", version: "1" },
      }),
      "notifications/initialized": () => undefined,
      "tools/list": () => ({ tools: TOOLS }),
      "tools/call": () => ({ content }),
    }),
  });
}

/** The same two tools declared once on the high-level API (createMcpServer), served in both eras. */
function highLevelHandler() {
  const server = createMcpServer([modern.MCP_RELEASE, legacy.MCP_RELEASE], { info: { name: "bench", version: "1" } });
  const content = [{ type: "text" as const, text: TOOL_TEXT }];
  for (const tool of TOOLS) server.tool(tool, () => ({ content }));
  return createHttpHandler(server.eras({ sessions: { versions: LEGACY_VERSIONS } }));
}

function sdkServer(): McpServer {
  const server = new McpServer({ name: "bench", version: "1" });
  for (const tool of TOOLS)
    server.registerTool(tool.name, { description: tool.description }, () => ({
      content: [{ type: "text", text: TOOL_TEXT }],
    }));
  return server;
}

function bare(req: IncomingMessage, res: ServerResponse): void {
  void readBody(req).then((body) => {
    const { id } = JSON.parse(body.toString("utf8")) as { id: number };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        result: { content: [{ type: "text", text: TOOL_TEXT }], resultType: "complete" },
      }),
    );
  });
}

const initialize = (id: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  });
const INIT_HEADERS = {
  host: "127.0.0.1",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** Heap bytes per idle session after `SESSIONS` initialize exchanges, each session kept open. */
async function bytesPerSession(kind: string): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with --expose-gc");
  const keep: unknown[] = [];
  let open: (i: number) => Promise<unknown>;
  if (kind === "ours" || kind === "redis") {
    const handler = oursHandler(redis);
    keep.push(handler);
    open = (i) =>
      handler
        .fetch(new Request("http://127.0.0.1/mcp", { method: "POST", headers: INIT_HEADERS, body: initialize(i) }))
        .then((r) => r.text());
  } else {
    // SDK v2's sessionful 2025 serving: a server and a transport per session.
    open = async (i) => {
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
      await sdkServer().connect(transport);
      keep.push(transport);
      await (
        await transport.handleRequest(
          new Request("http://127.0.0.1/mcp", { method: "POST", headers: INIT_HEADERS, body: initialize(i) }),
        )
      ).text();
    };
  }
  await open(0);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 1; i <= SESSIONS; i++) await open(i);
  gc();
  const after = process.memoryUsage().heapUsed;
  if (keep.length === 0) throw new Error("unreachable");
  return (after - before) / SESSIONS;
}

const kind = process.argv[2] ?? "ours";
const redis = kind === "redis" ? createRedisStores(process.argv[3] ?? "redis://127.0.0.1:6379") : undefined;
await redis?.ready();
const listener =
  kind === "ours" || kind === "redis"
    ? toNodeListener(oursHandler(redis))
    : kind === "high"
      ? toNodeListener(highLevelHandler())
      : kind === "sdk"
        ? (
            (handler) => (req: IncomingMessage, res: ServerResponse) =>
              void serveFetch(handler.fetch, req, res)
          )(createMcpHandler(sdkServer))
        : bare;
const server = createServer(listener);
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on("message", (message: string) => {
  if (message === "cpu") process.send?.({ cpu: process.cpuUsage() });
  if (message === "sessions") void bytesPerSession(kind).then((bytes) => process.send?.({ bytes }));
  if (message === "exit") server.close(() => process.exit(0));
});
