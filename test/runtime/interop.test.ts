import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { EmptyResultSchema, ListRootsRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import * as mcp from "../../generated/index.ts";
import * as v2025_11_25 from "../../generated/2025-11-25/index.ts";
import * as v2026_07_28 from "../../generated/2026-07-28/index.ts";
import { REAL_SCHEMA_DIR } from "../support/tmp-project.ts";

interface Captured {
  readonly from: "client" | "server";
  readonly message: JSONRPCMessage;
}

/** What kind a JSON-RPC message is, judged independently of `parse`. */
function kindOf(message: Record<string, unknown>): string {
  if ("method" in message) return "id" in message ? "request" : "notification";
  return "result" in message ? "result" : "error";
}

/** Runs a real SDK client against a real SDK server over an in-memory pair and records every message sent. */
async function converse(): Promise<Captured[]> {
  const captured: Captured[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  for (const [transport, from] of [
    [clientSide, "client"],
    [serverSide, "server"],
  ] as const) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      captured.push({ from, message: structuredClone(message) });
      return send(message, options);
    };
  }
  const server = new McpServer({ name: "interop-server", version: "1.0.0" }, { capabilities: { logging: {} } });
  // No zod input schemas: zod is not a dependency of this package, and argument checking is not what is tested here.
  server.registerTool("echo", { description: "Echo" }, async () => ({ content: [{ type: "text", text: "héllo" }] }));
  server.registerPrompt("greet", { description: "Greet" }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "hi" } }],
  }));
  server.registerResource("readme", "file:///readme.md", { mimeType: "text/markdown" }, async (uri) => ({
    contents: [{ uri: uri.href, text: "# readme" }],
  }));
  const client = new Client(
    { name: "interop-client", version: "1.0.0" },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
  await server.connect(serverSide);
  await client.connect(clientSide);
  await client.ping();
  await client.listTools();
  await client.callTool({ name: "echo", arguments: { text: "héllo" } });
  await client.callTool({ name: "missing", arguments: {} }).catch(() => undefined);
  await client.listPrompts();
  await client.getPrompt({ name: "greet" });
  await client.listResources();
  await client.readResource({ uri: "file:///readme.md" });
  await client.setLoggingLevel("info");
  await server.server.listRoots();
  await server.sendLoggingMessage({ level: "info", data: "log line" });
  await client.request({ method: "no/such/method", params: {} }, EmptyResultSchema).catch(() => undefined);
  server.sendToolListChanged();
  await client.sendRootsListChanged();
  await new Promise((resolve) => setTimeout(resolve, 10));
  await client.close();
  return captured;
}

describe("messages produced by the official SDK's client and server parse with parse", () => {
  let captured: Captured[] = [];
  beforeAll(async () => {
    captured = await converse();
  });

  it("the conversation covers all four kinds in both directions", () => {
    const seen = new Set(captured.map((c) => `${c.from}:${kindOf(c.message as Record<string, unknown>)}`));
    expect([...seen].sort()).toEqual([
      "client:notification",
      "client:request",
      "client:result",
      "server:error",
      "server:notification",
      "server:request",
      "server:result",
    ]);
    expect(captured.length).toBeGreaterThan(20);
  });

  it("every message parses with the right kind and method and encodes back to the same JSON", () => {
    for (const { message } of captured) {
      const raw = message as Record<string, unknown>;
      const text = JSON.stringify(message);
      for (const parse of [mcp.parse, v2025_11_25.parse]) {
        const outcome = parse(text);
        expect(outcome.ok, text).toBe(true);
        if (!outcome.ok) continue;
        expect(outcome.message.kind, text).toBe(kindOf(raw));
        if ("method" in raw) expect((outcome.message as { method: string }).method).toBe(raw["method"]);
        expect(JSON.parse(mcp.encode(outcome.message))).toEqual(JSON.parse(text));
      }
    }
  });

  it("requests and notifications of known methods also pass parse({ validate: true }) for the negotiated version", () => {
    const init = captured.find((c) => (c.message as { method?: string }).method === "initialize");
    expect((init?.message as unknown as { params: { protocolVersion: string } }).params.protocolVersion).toBe(
      v2025_11_25.PROTOCOL_VERSION,
    );
    for (const { message } of captured) {
      const method = (message as { method?: string }).method;
      if (method === undefined || !(method in v2025_11_25.METHODS)) continue;
      const outcome = v2025_11_25.parse(JSON.stringify(message), { validate: true });
      expect(outcome.ok, `${JSON.stringify(message)} → ${JSON.stringify(outcome)}`).toBe(true);
    }
  });
});

describe("the official 2026-07-28 examples parse with parse", () => {
  const root = join(REAL_SCHEMA_DIR, "2026-07-28", "examples");
  const messages = readdirSync(root)
    .flatMap((def) =>
      readdirSync(join(root, def)).map((file) => ({
        def,
        file,
        value: JSON.parse(readFileSync(join(root, def, file), "utf8")) as Record<string, unknown>,
      })),
    )
    .filter(({ value }) => value["jsonrpc"] === "2.0");

  it("every example that is a whole JSON-RPC message parses with its kind and method", () => {
    expect(messages.length).toBeGreaterThan(20);
    for (const { def, file, value } of messages) {
      const outcome = v2026_07_28.parse(JSON.stringify(value));
      expect(outcome.ok, `${def}/${file}`).toBe(true);
      if (!outcome.ok) continue;
      expect(outcome.message.kind, `${def}/${file}`).toBe(kindOf(value));
      expect(JSON.parse(v2026_07_28.encode(outcome.message))).toEqual(value);
    }
  });
});
