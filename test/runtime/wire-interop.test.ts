// The examples against the official SDKs, over Streamable HTTP on 127.0.0.1: SDK clients (v1 1.32.2 and
// v2 2.4.0, both negotiating with initialize) against the example server, and the example client against
// an SDK v1 server (legacy only: the client must fall back) and an SDK v2 server (modern first).
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "../../examples/client.ts";
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
      expect(elicited).toMatchObject({ content: [{ type: "text", text: 'User response: action=accept, content={"response":"from SDK v1"}' }] });
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
      expect(await client.callTool({ name: "test_image_content", arguments: {} })).toMatchObject({ content: [{ type: "image", mimeType: "image/png" }] });
    } finally {
      await client.close();
    }
  });
});

describe("the example client against official SDK servers", () => {
  it("falls back to initialize against an SDK v1 McpServer (legacy only) and calls its tool", async () => {
    const sdk = await startSdkV1Server();
    try {
      const connection = await connect(sdk.url);
      expect(connection.era).toBe("legacy");
      expect((await connection.listTools()).map((tool) => tool.name)).toEqual(["echo"]);
      expect(await connection.callTool({ name: "echo" })).toMatchObject({ content: [{ type: "text", text: ECHO_TEXT }] });
      await connection.close();
    } finally {
      await sdk.close();
    }
  });

  it("speaks 2026-07-28 to an SDK v2 server and calls its tool", async () => {
    const sdk = await startSdkV2Server();
    try {
      const connection = await connect(sdk.url);
      expect(connection.era).toBe("modern");
      expect((await connection.listTools()).map((tool) => tool.name)).toEqual(["echo"]);
      expect(await connection.callTool({ name: "echo" })).toMatchObject({ resultType: "complete", content: [{ type: "text", text: ECHO_TEXT }] });
      await connection.close();
    } finally {
      await sdk.close();
    }
  });

  it("is told to speak 2025-11-25 and goes straight to initialize, even where modern is on offer", async () => {
    const sdk = await startSdkV2Server();
    try {
      const connection = await connect(sdk.url, { protocolVersion: "2025-11-25" });
      expect(connection.era).toBe("legacy");
      expect(await connection.callTool({ name: "echo" })).toMatchObject({ content: [{ type: "text", text: ECHO_TEXT }] });
      await connection.close();
    } finally {
      await sdk.close();
    }
  });
});
