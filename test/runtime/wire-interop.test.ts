// The examples against the official SDKs, over Streamable HTTP on 127.0.0.1: SDK clients (v1 1.32.2 and
// v2 2.4.0 negotiating with initialize, and v2 in 2026-07-28) against the example server, and the example client against
// an SDK v1 server (legacy only: the client must fall back) and an SDK v2 server (modern first), and
// SDK v1 and v2 servers over stdio (both session-era there).
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { callOnce, run, type Target } from "../../examples/client.ts";
import { PACKAGE_ROOT } from "../../generator/project/project.ts";
import { startServer, type ExampleServer } from "../../examples/server.ts";
import { ECHO_TEXT, startSdkV1Server, startSdkV2Server } from "../support/sdk-servers.ts";

let server: ExampleServer;

beforeAll(async () => {
  server = await startServer({ port: 0 });
});

afterAll(async () => {
  await server.close();
});

describe("official SDK clients against the example server", () => {
  it("SDK v1 Client: initialize, list tools, call one, and answer the server's elicitation on the tool call's stream", async () => {
    const client = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { response: "from SDK v1" } }));
    const transport = new TransportV1(new URL(server.url));
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe("mcp-bindgen-example-server");
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("test_simple_text");
      expect(await client.callTool({ name: "test_simple_text", arguments: {} })).toMatchObject({
        content: [{ type: "text", text: "This is a simple text response for testing." }],
      });
      const elicited = await client.callTool({ name: "test_elicitation", arguments: { message: "Say something" } });
      expect(elicited).toMatchObject({
        content: [{ type: "text", text: 'User response: action=accept, content={"response":"from SDK v1"}' }],
      });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("SDK v2 Client: initialize, list tools, call one", async () => {
    const client = new ClientV2({ name: "sdk-v2-client", version: "2.0.0" });
    const transport = new TransportV2(new URL(server.url));
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("test_image_content");
      expect(await client.callTool({ name: "test_image_content", arguments: {} })).toMatchObject({
        content: [{ type: "image", mimeType: "image/png" }],
      });
    } finally {
      await client.close();
    }
  });

  it("SDK v2 Client in 2026-07-28 (versionNegotiation auto: server/discover first): list tools, call one", async () => {
    const client = new ClientV2({ name: "sdk-v2-client", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    const transport = new TransportV2(new URL(server.url));
    const sessions = server.handler.sessions;
    await client.connect(transport);
    try {
      // No initialize, so no new session: the client speaks the stateless era.
      expect(server.handler.sessions).toBe(sessions);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("echo");
      expect(await client.callTool({ name: "echo", arguments: { text: "over 2026-07-28" } })).toMatchObject({
        content: [{ type: "text", text: "over 2026-07-28" }],
      });
    } finally {
      await client.close();
    }
  });
});

/** The example's whole scenario against a server, and what it logged. */
async function runExample(target: Target, options: { protocolVersion?: string } = {}): Promise<string[]> {
  const lines: string[] = [];
  await run(target, { ...options, log: (line) => lines.push(line) });
  return lines;
}

const STDIO_SERVER = join(PACKAGE_ROOT, "test", "support", "sdk-stdio-server.ts");
const ECHOED = JSON.stringify({ content: [{ type: "text", text: ECHO_TEXT }] });

describe("the example client against official SDK servers", () => {
  it("falls back to initialize against an SDK v1 McpServer over HTTP (2025-11-25 only), lists and calls its tool", async () => {
    const sdk = await startSdkV1Server();
    try {
      const lines = await runExample({ url: sdk.url });
      expect(lines).toContain("connected: 2025-11-25");
      expect(lines).toContain("tools: echo");
      expect(lines).toContain(`echo: ${ECHOED}`);
    } finally {
      await sdk.close();
    }
  });

  it("speaks 2026-07-28 to an SDK v2 server over HTTP, lists and calls its tool", async () => {
    const sdk = await startSdkV2Server();
    try {
      const lines = await runExample({ url: sdk.url });
      expect(lines[0]).toBe("connected: 2026-07-28");
      expect(lines).toContain("tools: echo");
      expect(await callOnce({ url: sdk.url }, { name: "echo" })).toMatchObject({
        resultType: "complete",
        content: [{ type: "text", text: ECHO_TEXT }],
      });
    } finally {
      await sdk.close();
    }
  });

  it("is told to speak 2025-11-25 and goes straight to initialize, even where 2026-07-28 is on offer", async () => {
    const sdk = await startSdkV2Server();
    try {
      const lines = await runExample({ url: sdk.url }, { protocolVersion: "2025-11-25" });
      expect(lines[0]).toBe("connected: 2025-11-25");
      expect(lines).toContain(`echo: ${ECHOED}`);
    } finally {
      await sdk.close();
    }
  });

  it.each(["v1", "v2"])(
    "starts an SDK %s server over stdio, falls back to 2025-11-25, lists and calls its tool, and passes its stderr through",
    async (sdk) => {
      const lines = await runExample({ command: `"${process.execPath}" --import tsx "${STDIO_SERVER}" ${sdk}` });
      expect(lines).toContain("connected: 2025-11-25");
      expect(lines).toContain("tools: echo");
      expect(lines).toContain(`echo: ${ECHOED}`);
      expect(lines).toContain("server: sdk stdio server: started");
    },
  );
});
