import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createMcpHandler, McpServer as McpServerV2 } from "@modelcontextprotocol/server";
import { readBody, serveFetch } from "./serve-fetch.ts";

/** The same one-tool server on each SDK, so the example client's results can be compared. */
export const ECHO_TEXT = "hello from the official SDK";

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

function listen(server: Server): Promise<RunningServer> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** SDK v1 `McpServer` over its sessionful Streamable HTTP transport: a legacy-only (2025-11-25) server. */
export function startSdkV1Server(): Promise<RunningServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return listen(
    createServer((req, res) => {
      void (async () => {
        const sessionId = req.headers["mcp-session-id"];
        let transport = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
        if (transport === undefined) {
          const server = new McpServerV1({ name: "sdk-v1-server", version: "1.0.0" });
          server.registerTool("echo", { description: "Answers with a fixed text" }, () => ({
            content: [{ type: "text", text: ECHO_TEXT }],
          }));
          const created = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => crypto.randomUUID(),
            onsessioninitialized: (id) => void transports.set(id, created),
          });
          transport = created;
          await server.connect(created);
        }
        await transport.handleRequest(req, res, await readJson(req));
      })();
    }),
  );
}

/** SDK v2's `createMcpHandler`: 2026-07-28 first, stateless 2025 serving as its fallback. */
export function startSdkV2Server(): Promise<RunningServer> {
  const handler = createMcpHandler(() => {
    const server = new McpServerV2({ name: "sdk-v2-server", version: "2.0.0" });
    server.registerTool("echo", { description: "Answers with a fixed text" }, () => ({
      content: [{ type: "text", text: ECHO_TEXT }],
    }));
    return server;
  });
  return listen(createServer((req, res) => void serveFetch(handler.fetch, req, res)));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  if (req.method !== "POST") return undefined;
  const body = await readBody(req);
  return body.length === 0 ? undefined : JSON.parse(body.toString("utf8"));
}
